package io.railmap.cli.follow;

import io.railmap.matrix.model.Names;
import io.railmap.process.ProcessTree;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs the {@code --on-change} command ({@code sh -c CMD}) after writes, on a thread of its own, so
 * that no write ever waits for it: at most one run at a time and at most one more queued; requests
 * made while a run is queued are that run (it reads the file as it is when it starts, so the newest
 * file wins). A run longer than its timeout is ended (SIGTERM to the command and the processes it
 * started, SIGKILL {@value #GRACE_MS} ms later: {@link ProcessTree#waitFor}). Its standard output and error, merged, become lines
 * {@code railmap: on-change: LINE} (escaped, each cut to {@value #LINE_CHARS} characters), at most
 * {@value #MAX_LINES} per run, the rest read and dropped with one line saying so; its standard input
 * is {@code /dev/null}. A run still going when the watch ends (SIGINT) is ended with it.
 *
 * <p>Threads: {@link #request} from any thread; the runs on one daemon thread, the output on another.
 */
final class OnChange implements AutoCloseable {
    /** Lines of output shown per run. */
    static final int MAX_LINES = 50;
    /** Characters shown of one line. */
    static final int LINE_CHARS = 256;
    /** Time between SIGTERM and SIGKILL for a run past its timeout, in ms. */
    static final long GRACE_MS = 2_000;
    private static final Duration GRACE = Duration.ofMillis(GRACE_MS);

    private final String command;
    private final Duration timeout;
    private final Consumer<String> say;
    private final ExecutorService runs = Executors.newSingleThreadExecutor(r -> daemon(r, "railmap-on-change"));
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Thread endOnExit = new Thread(this::endRunning, "railmap-on-change-end");
    private volatile Process running;

    /**
     * @param command the shell command
     * @param timeout the longest a run may take
     * @param say     where the lines about runs go (a sentence, without the {@code railmap: } prefix)
     */
    OnChange(String command, Duration timeout, Consumer<String> say) {
        this.command = command;
        this.timeout = timeout;
        this.say = say;
        Runtime.getRuntime().addShutdownHook(endOnExit);
    }

    /** Asks for a run: starts one, or queues one after the current run, unless one is queued already. Never blocks. */
    void request() {
        if (queued.compareAndSet(false, true)) {
            runs.execute(() -> {
                queued.set(false);
                runOnce();
            });
        }
    }

    private void runOnce() {
        Process p;
        try {
            p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            say.accept("--on-change command could not start: " + Names.escape(String.valueOf(e.getMessage()), 256));
            return;
        }
        running = p;
        Thread output = daemon(() -> copy(p.getInputStream()), "railmap-on-change-output");
        output.start();
        try {
            if (!ProcessTree.waitFor(p, timeout, GRACE)) {
                say.accept("--on-change command did not end within " + timeout.toSeconds() + " s (--on-change-timeout) and was ended");
            } else if (p.exitValue() != 0) {
                say.accept("--on-change command exited " + p.exitValue());
            }
            // what the command wrote last is shown before the next run's; a process it left behind holding the pipe is not waited for
            output.join(GRACE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = null;
        }
    }

    /** Shows the output's lines, bounded as the class says; reads to the end whatever it shows. */
    private void copy(InputStream in) {
        int lines = 0;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean cut = false;
        byte[] buffer = new byte[8192];
        try (in) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        lines = show(line, lines);
                        cut = false;
                    } else if (line.size() < LINE_CHARS * 4) {
                        line.write(buffer[i]);
                    } else {
                        cut = true;
                    }
                }
            }
            if (line.size() > 0 || cut) {
                lines = show(line, lines);
            }
        } catch (IOException e) {
            // the pipe closed under us (the run was ended): what was read is shown
        }
        if (lines > MAX_LINES) {
            say.accept("on-change: (" + (lines - MAX_LINES) + " more lines not shown)");
        }
    }

    private int show(ByteArrayOutputStream line, int shown) {
        if (shown < MAX_LINES) {
            say.accept("on-change: " + Names.escape(line.toString(StandardCharsets.UTF_8), LINE_CHARS));
        }
        line.reset();
        return shown + 1;
    }

    private void endRunning() {
        Process p = running;
        if (p != null) {
            ProcessTree.kill(p);
        }
    }

    @Override
    public void close() {
        runs.shutdownNow();
        endRunning();
        try {
            Runtime.getRuntime().removeShutdownHook(endOnExit);
        } catch (IllegalStateException stopping) {
            // the JVM is stopping: the hook runs anyway
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
