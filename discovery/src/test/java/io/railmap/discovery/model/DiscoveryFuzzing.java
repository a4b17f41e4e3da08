package io.railmap.discovery.model;

import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.model.Names;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the discovery fuzz targets check beyond "nothing but the documented exception is thrown"
 * ({@link DiscoveryException} for a port source, the parser's own for one command's output): every
 * skip reason, note and failure message is one line of bounded length with no control character,
 * whatever the system said.
 */
public final class DiscoveryFuzzing {
    /** Longest reason, note or message: two escaped paths and a few escaped values fit well within it. */
    public static final int MAX_LINE = 2048;
    /** The rule every line meets, in words. */
    private static final String LINE = "one non-blank line of at most " + MAX_LINE + " characters without a control character";

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
        Discovery found = parse(inputs, source::discover, DiscoveryException.class);
        if (found != null) {
            lines("a reason or note", Stream.of(found.skipped().stream().map(SkippedPort::port),
                    found.skipped().stream().map(SkippedPort::reason), found.notes().stream()).flatMap(s -> s), inputs);
        }
        return found;
    }

    /**
     * Runs one parse of what a command printed.
     *
     * @param inputs     what the parser reads, by name, for a failure message
     * @param parse      the parser applied to them
     * @param documented the exception the parser documents for bad input
     * @return what it returned; null when it threw {@code documented}, whose message is checked as a line
     * @throws AssertionError when it threw anything else, or its message breaks the rule
     */
    public static <T> T parse(Map<String, byte[]> inputs, Fuzzing.Parse<T> parse, Class<? extends Exception> documented) {
        return Fuzzing.parse(inputs, parse, LINE, DiscoveryFuzzing::isLine, documented);
    }

    /**
     * @param what   what the lines are, for a failure message
     * @param lines  reasons, notes or names a parser wrote
     * @param inputs what it read, by name, for a failure message
     * @throws AssertionError when a line is blank, too long or holds a control character
     */
    public static void lines(String what, Stream<String> lines, Map<String, byte[]> inputs) {
        lines.forEach(line -> line(what, line, inputs));
    }

    private static void line(String what, String line, Map<String, byte[]> inputs) {
        if (!isLine(line)) {
            throw Fuzzing.failure(what + " that is not " + LINE + ": " + (line == null ? null : Names.escape(line, 300)), inputs, null);
        }
    }

    private static boolean isLine(String line) {
        return line != null && !line.isBlank() && line.length() <= MAX_LINE && !Names.hasHidden(line);
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
