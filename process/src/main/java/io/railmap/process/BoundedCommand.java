package io.railmap.process;

import io.railmap.matrix.model.Names;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs a child process to completion with every input bounded: standard input closed, standard
 * output read through a pipe up to a byte limit (the child is killed as soon as it prints more),
 * standard error kept up to {@value #STDERR_BYTES} bytes (or merged into standard output), and the
 * whole run up to a time limit, after which the child and any processes it started are killed
 * ({@link ProcessTree#kill}). Nothing is written to disk.
 *
 * <p>Used for discovery's helper programs (lldpd's {@code lldpcli}, infiniband-diags'
 * {@code smpquery}, the macOS commands) and the lab's iproute2 calls.
 *
 * <p>Threads: each run reads the child's output on two daemon threads of its own; any thread may
 * call {@link #run}.
 */
public final class BoundedCommand {
    /** Standard error kept for the message, in bytes; the rest is read and dropped. */
    static final int STDERR_BYTES = 2048;
    /** Where programs are looked for after {@code PATH}: lldpcli and smpquery live in sbin. */
    private static final List<String> SBIN = List.of("/usr/sbin", "/usr/local/sbin", "/sbin");

    private BoundedCommand() {
    }

    /**
     * @param program a program name, such as {@code lldpcli}
     * @return the first executable regular file of that name in {@code PATH}, then in
     *         {@code /usr/sbin}, {@code /usr/local/sbin} and {@code /sbin}; empty when there is none
     */
    public static Optional<Path> locate(String program) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
        }
        dirs.addAll(SBIN);
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Runs a command and returns its standard output.
     *
     * @param argv     the program and its arguments
     * @param timeout  how long it may run
     * @param maxBytes the most standard output taken, in bytes
     * @return standard output, decoded as strict UTF-8
     * @throws CommandFailedException naming the command line when the program cannot be started,
     *                                exits with a non-zero status (the message quotes the start of
     *                                its standard error, escaped), runs past the time limit,
     *                                prints more than {@code maxBytes} bytes or text that is not
     *                                UTF-8, or the thread is interrupted; the child is gone when
     *                                this returns or throws
     */
    public static String run(List<String> argv, Duration timeout, int maxBytes) throws CommandFailedException {
        return run(argv, timeout, maxBytes, false);
    }

    /**
     * Runs a command and returns its standard output and standard error, merged as the child wrote them.
     *
     * @param argv     the program and its arguments
     * @param timeout  how long it may run
     * @param maxBytes the most output taken, in bytes
     * @return standard output and error, decoded as strict UTF-8
     * @throws CommandFailedException as {@link #run(List, Duration, int)}; on a non-zero exit status
     *                                the message quotes the start of the merged output, escaped
     */
    public static String runMerged(List<String> argv, Duration timeout, int maxBytes) throws CommandFailedException {
        return run(argv, timeout, maxBytes, true);
    }

    private static String run(List<String> argv, Duration timeout, int maxBytes, boolean merge) throws CommandFailedException {
        String line = Names.escape(String.join(" ", argv), 300);
        Process process;
        try {
            process = new ProcessBuilder(argv).redirectErrorStream(merge).start();
        } catch (IOException e) {
            throw new CommandFailedException(line + ": cannot run: " + Names.escape(String.valueOf(e.getMessage()), 200), true);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            process.getOutputStream().close();
            Drain out = new Drain(process.getInputStream(), maxBytes, process);
            Drain err = new Drain(process.getErrorStream(), STDERR_BYTES, null);
            Thread outReader = reader(out, "railmap-cmd-out");
            Thread errReader = reader(err, "railmap-cmd-err");
            boolean exited = process.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (exited) {
                // the pipes close when the child and anything holding them exit; bounded all the same
                outReader.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                errReader.join(100);
            }
            if (out.overflow) {
                throw new CommandFailedException(line + ": printed more than " + maxBytes + " bytes, more than its answer needs; stopped", false);
            }
            if (!exited || outReader.isAlive()) {
                throw new CommandFailedException(line + ": no answer within " + timeout.toMillis() + " ms; stopped", false);
            }
            if (process.exitValue() != 0) {
                String text = new String(merge ? out.bytes() : err.bytes(), StandardCharsets.UTF_8).strip();
                throw new CommandFailedException(line + ": exit status " + process.exitValue()
                        + (text.isEmpty() ? "" : ": " + Names.escape(text, 300)), false);
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.bytes())).toString();
            } catch (CharacterCodingException e) {
                throw new CommandFailedException(line + ": printed text that is not UTF-8", false);
            }
        } catch (IOException e) {
            throw new CommandFailedException(line + ": " + Names.escape(String.valueOf(e.getMessage()), 200), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException(line + ": interrupted", false);
        } finally {
            if (process.isAlive()) {
                ProcessTree.kill(process);
            }
        }
    }

    private static Thread reader(Runnable drain, String name) {
        Thread thread = new Thread(drain, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Reads a stream to its end, keeping at most {@code limit} bytes; past it, kills the process when given one. */
    private static final class Drain implements Runnable {
        private final InputStream in;
        private final int limit;
        private final Process killOnOverflow;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        volatile boolean overflow;

        Drain(InputStream in, int limit, Process killOnOverflow) {
            this.in = in;
            this.limit = limit;
            this.killOnOverflow = killOnOverflow;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    int room = limit - kept.size();
                    if (n > room) {
                        kept.write(buffer, 0, Math.max(0, room));
                        if (killOnOverflow != null) {
                            overflow = true;
                            ProcessTree.kill(killOnOverflow);
                            return;
                        }
                    } else {
                        kept.write(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                // the process was killed or closed its end: what was read is kept
            }
        }

        byte[] bytes() {
            return kept.toByteArray();
        }
    }
}
