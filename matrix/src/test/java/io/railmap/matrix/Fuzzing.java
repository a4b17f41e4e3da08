package io.railmap.matrix;

import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What every fuzz target shares. A target is a class named {@code *FuzzTest} with one Jazzer
 * {@code @FuzzTest} method (Jazzer fuzzes one target per JVM; the build's {@code fuzz} execution
 * gives each class its own) that feeds the input to one parser through {@link #parse} and then
 * checks what the parser returned. Seeds come from the real fixtures through a
 * {@code @MethodSource} placed before {@code @FuzzTest}; they also run as plain regression cases.
 *
 * <p>Adding a target, for example the probe datagram:
 * <pre>
 * class ProbeDatagramFuzzTest {
 *     static Stream&lt;byte[]&gt; seeds() { ... real datagrams ... }
 *
 *     &#64;MethodSource("seeds")
 *     &#64;FuzzTest(maxExecutions = Fuzzing.EXECUTIONS)
 *     void datagram(byte[] input) {
 *         Fuzzing.parse(input, () -&gt; ProbeCodec.decode(input), FormatException.class);
 *     }
 * }
 * </pre>
 * A failure names the exception and prints the input in hex, so it can be replayed as a
 * regression test (Jazzer also writes it under {@code target/fuzz}).
 */
public final class Fuzzing {
    /**
     * Executions per target in one build: a smoke run of a few seconds each, since a target's fork
     * spends most of its time starting and instrumenting (docs/fuzzing.md: the longer campaigns).
     */
    public static final int EXECUTIONS = 5_000;
    /** The longest a target fuzzes in one build, whatever its executions. */
    public static final String MAX_DURATION = "5s";

    private Fuzzing() {
    }

    /** A parse that may throw. */
    @FunctionalInterface
    public interface Parse<T> {
        /** @return what was parsed */
        T run() throws Exception;
    }

    /**
     * Runs one parse of one input.
     *
     * @param input      the raw input, for the failure message
     * @param parse      the parser applied to it
     * @param documented the exceptions the parser documents for bad input
     * @return what the parser returned, or null when it threw a documented exception (whose message
     *         must be non-blank)
     * @throws AssertionError when it threw anything else, naming it and printing the input in hex
     */
    @SafeVarargs
    public static <T> T parse(byte[] input, Parse<T> parse, Class<? extends Throwable>... documented) {
        return parse(Map.of("input", input), parse, documented);
    }

    /**
     * As {@link #parse(byte[], Parse, Class[])} for a target with several inputs (several files
     * of one system), each printed by name on failure.
     */
    @SafeVarargs
    public static <T> T parse(Map<String, byte[]> inputs, Parse<T> parse, Class<? extends Throwable>... documented) {
        return parse(inputs, parse, "any text", message -> true, documented);
    }

    /**
     * As {@link #parse(Map, Parse, Class[])}, and the message of a documented exception must also
     * meet a rule of the target's own (one line, naming the file, ...).
     *
     * @param rule    the rule in words, for the failure message ("one line naming the file")
     * @param message the rule, given a documented exception's non-blank message
     * @throws AssertionError also when the message breaks the rule, printing it escaped
     */
    @SafeVarargs
    public static <T> T parse(Map<String, byte[]> inputs, Parse<T> parse, String rule, Predicate<String> message,
            Class<? extends Throwable>... documented) {
        try {
            return parse.run();
        } catch (Throwable e) {
            for (Class<? extends Throwable> type : documented) {
                if (type.isInstance(e)) {
                    if (e.getMessage() == null || e.getMessage().isBlank()) {
                        throw failure("a " + e.getClass().getSimpleName() + " without a message", inputs, e);
                    }
                    if (!message.test(e.getMessage())) {
                        throw failure("a " + e.getClass().getSimpleName() + " whose message is not " + rule + " ("
                                + Names.escape(e.getMessage(), 300) + ")", inputs, e);
                    }
                    return null;
                }
            }
            throw failure("an undocumented " + e.getClass().getName(), inputs, e);
        }
    }

    /**
     * @param what    what went wrong
     * @param inputs  the inputs by name (a null one is printed as absent)
     * @param cause   the exception, if any
     * @return an error naming what went wrong and every input in hex
     */
    public static AssertionError failure(String what, Map<String, byte[]> inputs, Throwable cause) {
        StringBuilder message = new StringBuilder(what).append(" on this input:");
        new LinkedHashMap<>(inputs).forEach((name, bytes) -> message.append("\n  ").append(name).append(" (hex): ")
                .append(bytes == null ? "(absent)" : HexFormat.of().formatHex(bytes)));
        return new AssertionError(message.toString(), cause);
    }

    /**
     * @param paths files, or directories whose files are read (not recursively)
     * @return each file's bytes, in name order
     */
    public static Stream<byte[]> files(Path... paths) {
        List<byte[]> out = new ArrayList<>();
        for (Path path : paths) {
            try {
                if (Files.isDirectory(path)) {
                    try (Stream<Path> files = Files.list(path)) {
                        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                            out.add(Files.readAllBytes(file));
                        }
                    }
                } else {
                    out.add(Files.readAllBytes(path));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out.stream();
    }
}
