package io.railmap.cli.options;

import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code -o FILE}: write the result there (atomically) instead of standard output. */
public final class OutputOption {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE (atomically: a temporary file, then a rename) instead of standard output.")
    Path output;

    /** Writes the whole text to the file or to {@code out}. */
    public void write(String text, PrintWriter out) {
        Files.write(output, text, out);
    }
}
