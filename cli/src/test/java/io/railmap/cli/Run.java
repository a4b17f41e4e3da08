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
}
