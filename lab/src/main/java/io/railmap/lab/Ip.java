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
        Path out = null;
        try {
            out = Files.createTempFile("railmap-lab", ".out");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new LabException(String.join(" ", command) + " took longer than " + TIMEOUT_MS / 1000 + " s");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new LabException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): " + text.trim());
            }
            return text;
        } catch (IOException e) {
            throw new LabException("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException(String.join(" ", command) + " was interrupted");
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
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
