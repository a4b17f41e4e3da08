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
     * @throws AssertionError when {@code lab up} fails, with its standard error
     */
    static void labUp(java.nio.file.Path root, java.nio.file.Path dir, String prefix, String example) {
        System.setProperty("railmap.home", root.toString());
        System.setProperty("railmap.lab.dir", dir.resolve("lab").toString());
        System.setProperty("railmap.lab.prefix", prefix);
        of("lab", "down");
        Run up = of("lab", "up", "--topology", root.resolve("examples/" + example).toString(), "--wait-s", "90");
        org.assertj.core.api.Assertions.assertThat(up.code()).as(up.err()).isZero();
    }
}
