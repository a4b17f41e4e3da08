package io.railmap.discovery.macos;

import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real commands as child processes, with standard input closed and standard output and
 * error collected in temporary files (so a chatty command cannot block on a full pipe). A command
 * still running at the time limit is killed, with any processes it started.
 */
public final class ProcessCommandRunner implements CommandRunner {
    /** Default time limit: {@code system_profiler} takes a few seconds on a busy machine. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final int STDERR_QUOTE_CHARS = 300;
    /** Largest standard output read, in bytes ({@code system_profiler}'s JSON is tens of KB). */
    public static final long MAX_OUTPUT_BYTES = 16L << 20;

    private final Duration timeout;

    /** Uses {@link #DEFAULT_TIMEOUT}. */
    public ProcessCommandRunner() {
        this(DEFAULT_TIMEOUT);
    }

    /**
     * @param timeout how long one command may run
     * @throws IllegalArgumentException when the timeout is zero or negative
     */
    public ProcessCommandRunner(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("command timeout " + timeout + " is not positive");
        }
        this.timeout = timeout;
    }

    /**
     * @throws CommandException when the program cannot be started (not installed), exits with a
     *                          non-zero status (the message quotes the start of its standard
     *                          error, escaped), runs past the time limit, prints more than
     *                          {@value #MAX_OUTPUT_BYTES} bytes or text that is not UTF-8, or the
     *                          thread is interrupted
     */
    @Override
    public CommandOutput run(MacCommand command) throws CommandException {
        return run(command.argv());
    }

    /** Runs any argument vector; the source of the output is the command line. */
    CommandOutput run(List<String> argv) throws CommandException {
        String line = String.join(" ", argv);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("railmap-cmd", ".out");
            err = Files.createTempFile("railmap-cmd", ".err");
            Process process = new ProcessBuilder(argv)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(1, TimeUnit.SECONDS);
                throw new CommandException(line + ": no answer within " + timeout.toMillis() + " ms; stopped");
            }
            if (process.exitValue() != 0) {
                throw new CommandException(line + ": exit status " + process.exitValue() + quote(err));
            }
            if (Files.size(out) > MAX_OUTPUT_BYTES) {
                throw new CommandException(line + ": printed more than " + MAX_OUTPUT_BYTES + " bytes, more than any of its outputs needs");
            }
            return new CommandOutput(line, Files.readString(out, StandardCharsets.UTF_8));
        } catch (CharacterCodingException e) {
            throw new CommandException(line + ": printed text that is not UTF-8");
        } catch (IOException e) {
            throw new CommandException(line + ": cannot run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException(line + ": interrupted");
        } finally {
            delete(out);
            delete(err);
        }
    }

    private static String quote(Path err) {
        try {
            byte[] start;
            try (InputStream in = Files.newInputStream(err)) {
                start = in.readNBytes(STDERR_QUOTE_CHARS * 4);
            }
            String text = new String(start, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "" : ": " + Names.escape(text, STDERR_QUOTE_CHARS);
        } catch (IOException e) {
            return "";
        }
    }

    private static void delete(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a leftover temporary file is harmless; the OS cleans its temp directory
            }
        }
    }
}
