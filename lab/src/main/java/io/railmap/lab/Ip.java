package io.railmap.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs iproute2 and other short commands, each bounded in time, with errors that name the command. */
public final class Ip {
    /** How long one command may take, in ms. */
    public static final long TIMEOUT_MS = 20_000;

    private Ip() {
    }

    /**
     * Runs a command to completion.
     *
     * @param command the program and its arguments
     * @return its standard output and error, merged
     * @throws LabException when it cannot start, times out, or exits non-zero (with its output)
     */
    public static String run(String... command) {
        return run(List.of(command));
    }

    /** @see #run(String...) */
    public static String run(List<String> command) {
        return run(command, true);
    }

    /**
     * Runs a command whose standard output is data (JSON): a warning on its standard error is not
     * mixed in, but is part of the message when the command fails.
     *
     * @return its standard output
     * @throws LabException as {@link #run(String...)}
     */
    public static String output(String... command) {
        return run(List.of(command), false);
    }

    private static String run(List<String> command, boolean mergeErrors) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("railmap-lab", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(mergeErrors).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            if (!mergeErrors) {
                err = Files.createTempFile("railmap-lab", ".err");
                builder.redirectError(err.toFile());
            }
            Process p = builder.start();
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new LabException(String.join(" ", command) + " took longer than " + TIMEOUT_MS / 1000 + " s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String errors = err == null ? "" : Files.readString(err, StandardCharsets.UTF_8);
                throw new LabException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + (errors + text).trim());
            }
            return text;
        } catch (IOException e) {
            throw new LabException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException(String.join(" ", command) + " was interrupted");
        } finally {
            for (Path file : java.util.Arrays.asList(out, err)) {
                try {
                    if (file != null) {
                        Files.deleteIfExists(file);
                    }
                } catch (IOException ignored) {
                    // a temporary file in /tmp; nothing depends on it
                }
            }
        }
    }

    /** Like {@link #run(String...)}, but a failure is ignored (for clean-up of what may not exist). */
    public static void runQuietly(String... command) {
        try {
            run(command);
        } catch (LabException ignored) {
            // already gone, or never made
        }
    }
}
