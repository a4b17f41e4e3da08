package io.railmap.cli.options;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code -o FILE}: write the result there ({@link OutputFile}) instead of standard output; {@code -o -} is standard output. */
public final class OutputOption {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE instead of standard output (- for standard output): a temporary file, then a rename, "
                    + "so FILE is never half-written; a replaced file keeps its mode, a new one follows the umask; "
                    + "only regular files are written (never a device, FIFO or directory).")
    String output;

    /** @return the file to write, empty for standard output */
    public Optional<Path> file() {
        return output == null || output.equals("-") ? Optional.empty() : Optional.of(Path.of(output));
    }

    /**
     * Writes the whole text to the file, or to {@code out} when no file or {@code -} is given.
     *
     * @throws io.railmap.cli.UserError as {@link OutputFile#write}
     */
    public void write(String text, PrintWriter out) {
        if (output == null || output.equals("-")) {
            out.print(text);
            out.flush();
            return;
        }
        OutputFile.write(Path.of(output), text);
    }
}
