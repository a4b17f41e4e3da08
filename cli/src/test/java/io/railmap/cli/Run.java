package io.railmap.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of {@code railmap} through {@link Railmap#commandLine}, the factory {@code main} uses.
 *
 * @param code exit code
 * @param out  standard output
 * @param err  standard error
 */
public record Run(int code, String out, String err) {
    public static Run of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Railmap.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * Brings up a lab of an example topology for a test class: its files under {@code dir}, its
     * namespaces named with {@code prefix}, after taking down what a crashed run left.
     *
     * @param root    the checkout (railmap.home)
     * @param example a file of {@code examples/}, e.g. {@code two-crossed.json}
     * @param flags   more flags of {@code lab up}, e.g. {@code --ssh on}
     * @throws AssertionError when {@code lab up} fails, with its output
     */
    static void labUp(java.nio.file.Path root, java.nio.file.Path dir, String prefix, String example, String... flags) {
        System.setProperty("railmap.home", root.toString());
        System.setProperty("railmap.lab.dir", dir.resolve("lab").toString());
        System.setProperty("railmap.lab.prefix", prefix);
        of("lab", "down");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("lab", "up", "--topology",
                root.resolve("examples/" + example).toString(), "--wait-s", "90"));
        args.addAll(java.util.List.of(flags));
        Run up = of(args.toArray(String[]::new));
        org.assertj.core.api.Assertions.assertThat(up.code()).as("lab up: %s%s", up.out(), up.err()).isZero();
    }
}
