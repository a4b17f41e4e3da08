package io.railmap.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.OptionalInt;

/** One parse of a bench program's command line: its exit code (empty: run) and what it printed. */
record BenchCall(OptionalInt exit, String out, String err) {
    /** Parses {@code args} into {@code command} as the program's {@code main} does, capturing both streams. */
    static BenchCall parse(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        OptionalInt exit = BenchCommandLine.parse(command, args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new BenchCall(exit, out.toString(), err.toString());
    }
}
