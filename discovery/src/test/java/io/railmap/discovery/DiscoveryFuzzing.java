package io.railmap.discovery;

import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.model.Names;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the discovery fuzz targets check beyond "nothing but {@link DiscoveryException} is thrown":
 * every skip reason, note and failure message is one line of bounded length with no control
 * character, whatever the system said.
 */
public final class DiscoveryFuzzing {
    /** Longest reason, note or message: two escaped paths and a few escaped values fit well within it. */
    public static final int MAX_LINE = 2048;

    private DiscoveryFuzzing() {
    }

    /**
     * Runs one discovery.
     *
     * @param inputs what the source reads, by name, for a failure message
     * @return what it found, checked; null when it failed with a {@link DiscoveryException}, whose
     *         message is checked
     * @throws AssertionError when it threw anything else, or a line it wrote breaks the rule
     */
    public static Discovery discover(PortSource source, Map<String, byte[]> inputs) {
        Discovery found;
        try {
            found = source.discover();
        } catch (DiscoveryException e) {
            line("the failure message", e.getMessage(), inputs);
            return null;
        } catch (Throwable e) {
            throw Fuzzing.failure("an undocumented " + e.getClass().getName(), inputs, e);
        }
        Stream.of(found.skipped().stream().map(SkippedPort::port), found.skipped().stream().map(SkippedPort::reason),
                        found.notes().stream())
                .flatMap(s -> s)
                .forEach(line -> line("a reason or note", line, inputs));
        return found;
    }

    private static void line(String what, String line, Map<String, byte[]> inputs) {
        if (line == null || line.isBlank() || line.length() > MAX_LINE || Names.hasHidden(line)) {
            throw Fuzzing.failure(what + " that is blank, longer than " + MAX_LINE
                    + " characters or holds a control character: " + (line == null ? null : Names.escape(line, 300)), inputs, null);
        }
    }

    /** @return the inputs as a map for {@link Fuzzing#failure}, null values kept */
    public static Map<String, byte[]> inputs(List<String> names, byte[]... values) {
        Map<String, byte[]> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            map.put(names.get(i), values[i]);
        }
        return map;
    }
}
