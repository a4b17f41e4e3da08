package io.railmap.daemon.node;

import io.railmap.matrix.model.Names;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Link and address changes as the kernel announces them (rtnetlink), read from
 * {@code ip -o monitor link address} (iproute2) running as a child process: every line it prints
 * is one event ({@code onEvent}), whatever it says; the daemon answers each with a discovery poll
 * ({@link DiscoveryPolls#request}), which reads the facts themselves from sysfs. Lines are not
 * parsed: {@code -o} prints one line per message, and a line that is no event (an error such as
 * {@code netlink receive error No buffer space available}, after which events may have been lost)
 * deserves a poll as much.
 *
 * <p>The child's output is read as hostile input, on a thread of its own ({@value #THREAD}, a
 * daemon thread blocked in a read; never an event loop): a line is read up to
 * {@value #MAX_LINE_BYTES} bytes and the rest of it skipped; at most {@value #MAX_LINES_PER_SECOND}
 * lines a second are taken, after which reading pauses until the second ends (the pipe fills and
 * {@code ip} waits; the kernel drops what {@code ip} cannot take, and the polls that follow read
 * the state as it is), logged once per child.
 *
 * <p>The child counts as running ({@code onRunning(true)}) once it has lived
 * {@value #SETTLE_MS} ms: by then it listens, so a poll made then misses nothing. When it cannot be
 * started or exits, {@code onRunning(false)} is called and it is started again after a back-off
 * that doubles from {@value #FIRST_BACKOFF_MS} ms to {@value #MAX_BACKOFF_MS} ms, and starts over
 * after a child that ran {@value #STABLE_MS} ms. That events cannot be read is logged once (with
 * the reason: the command missing, its exit code and last line), and that they can again once.
 *
 * <p>On Linux only: macOS has no rtnetlink (its discovery keeps polling).
 */
public final class LinkEvents implements AutoCloseable {
    private static final Logger LOG = System.getLogger(LinkEvents.class.getName());
    /** The command: iproute2's monitor of link and address messages, one line per message. */
    public static final List<String> IP_MONITOR = List.of("ip", "-o", "monitor", "link", "address");
    /** The reading thread's name. */
    public static final String THREAD = "railmap-link-events";
    /** The longest line taken, in bytes; the rest of a longer line is skipped (it is still one event). */
    static final int MAX_LINE_BYTES = 4096;
    /** The most lines taken in one second; then reading pauses until the second ends. */
    static final int MAX_LINES_PER_SECOND = 200;
    /** How long the child must live before it counts as running, in ms. */
    static final long SETTLE_MS = 1_000;
    /** The first wait before starting the child again, in ms. */
    static final long FIRST_BACKOFF_MS = 1_000;
    /** The longest wait before starting the child again, in ms. */
    static final long MAX_BACKOFF_MS = 60_000;
    /** How long a child must have run for the back-off to start over, in ms. */
    static final long STABLE_MS = 60_000;
    /** The most characters of the child's last line quoted in a log line. */
    private static final int QUOTED_CHARS = 200;

    /** Whether events are read; called on the reading thread. */
    @FunctionalInterface
    public interface Running {
        /** @param running true once the child listens, false when it cannot be started or exited */
        void running(boolean running);
    }

    private final List<String> command;
    private final Runnable onEvent;
    private final Running onRunning;
    private final Timing timing;
    private final LongSupplier nanoClock = System::nanoTime;
    private final Thread thread;
    private final Object lock = new Object();
    // guarded by lock
    private Process child;
    private boolean closed;
    // on the reading thread only
    private boolean unavailableLogged;
    private boolean everRan;
    private String lastLine;
    private boolean throttleLogged;

    /** Back-off and settling times, in ms; {@link #DEFAULTS} in the daemon, shorter in tests. */
    record Timing(long settleMs, long firstBackoffMs, long maxBackoffMs, long stableMs) {
        static final Timing DEFAULTS = new Timing(SETTLE_MS, FIRST_BACKOFF_MS, MAX_BACKOFF_MS, STABLE_MS);
    }

    /**
     * @param command   the monitor to run ({@link #IP_MONITOR}); found on the {@code PATH}
     * @param onEvent   called once per line taken, on the reading thread; must return at once
     * @param onRunning told when events start and stop being read, on the reading thread; must
     *                  return at once
     */
    public LinkEvents(List<String> command, Runnable onEvent, Running onRunning) {
        this(command, onEvent, onRunning, Timing.DEFAULTS);
    }

    LinkEvents(List<String> command, Runnable onEvent, Running onRunning, Timing timing) {
        this.command = List.copyOf(command);
        this.onEvent = Objects.requireNonNull(onEvent, "onEvent");
        this.onRunning = Objects.requireNonNull(onRunning, "onRunning");
        this.timing = timing;
        this.thread = new Thread(this::loop, THREAD);
        thread.setDaemon(true);
    }

    /** Starts the child and the reading thread; returns at once. */
    public void start() {
        thread.start();
    }

    private void loop() {
        long backoffMs = timing.firstBackoffMs();
        while (!isClosed()) {
            long started = nanoClock.getAsLong();
            String why = runOnce();
            if (isClosed()) {
                return;
            }
            long ranMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - started);
            if (ranMs >= timing.stableMs()) {
                backoffMs = timing.firstBackoffMs();
            }
            if (!unavailableLogged) {
                unavailableLogged = true;
                LOG.log(Level.WARNING, "link events unavailable: " + why + "; discovery polls every --link-poll-ms instead;"
                        + " tried again in " + backoffMs + " ms, then less and less often up to every " + timing.maxBackoffMs()
                        + " ms (logged again when events are read)");
            }
            synchronized (lock) {
                try {
                    if (!closed) {
                        lock.wait(backoffMs);
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
            backoffMs = Math.min(timing.maxBackoffMs(), backoffMs * 2);
        }
    }

    /** Runs the child once, until it exits or this closes. @return why events stopped, for the log */
    private String runOnce() {
        String shown = String.join(" ", command);
        Process p;
        synchronized (lock) {
            if (closed) {
                return "closed";
            }
            try {
                p = new ProcessBuilder(command).redirectErrorStream(true).start();
            } catch (IOException e) {
                return "cannot run " + Names.escape(shown, QUOTED_CHARS) + ": " + Names.escape(e.getMessage(), QUOTED_CHARS)
                        + " (is iproute2 installed?)";
            }
            child = p;
        }
        lastLine = null;
        boolean running = false;
        try (InputStream out = new BufferedInputStream(p.getInputStream())) {
            p.getOutputStream().close();
            if (!p.waitFor(timing.settleMs(), TimeUnit.MILLISECONDS)) {
                running = true;
                onRunning.running(true);
                if (unavailableLogged || !everRan) {
                    LOG.log(Level.INFO, "link events read" + (unavailableLogged ? " again" : "") + " from " + shown
                            + ": discovery polls on each link or address change");
                    unavailableLogged = false;
                }
                everRan = true;
            }
            read(out, this::line);
            if (!p.waitFor(timing.settleMs(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(timing.settleMs(), TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            // the pipe broke: the child is ended below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            p.destroyForcibly();
            synchronized (lock) {
                child = null;
            }
            if (running) {
                onRunning.running(false);
            }
        }
        String exit = p.isAlive() ? "did not exit" : "exited with code " + p.exitValue();
        return shown + " " + exit + (lastLine == null ? "" : " (its last line: \"" + Names.escape(lastLine, QUOTED_CHARS) + "\")");
    }

    private void line(String text) {
        lastLine = text;
        onEvent.run();
    }

    /** Receives the lines {@link #read} takes. */
    @FunctionalInterface
    interface Lines {
        /** @param line a line without its end, cut at {@value #MAX_LINE_BYTES} bytes (UTF-8, malformed bytes replaced) */
        void line(String line);
    }

    /**
     * Reads lines until the end of the stream, each cut at {@value #MAX_LINE_BYTES} bytes (the rest
     * up to its end skipped), at most {@value #MAX_LINES_PER_SECOND} a second (then it sleeps until
     * the second ends), and hands each on; a last line without an end counts too.
     *
     * @param in    the child's output
     * @param lines receives each line
     * @throws IOException          when reading fails
     * @throws InterruptedException when interrupted while pausing
     */
    void read(InputStream in, Lines lines) throws IOException, InterruptedException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        boolean any = false;
        long windowStart = nanoClock.getAsLong();
        int inWindow = 0;
        throttleLogged = false;
        for (int b = in.read(); ; b = in.read()) {
            if (b == -1 || b == '\n') {
                if (b == -1 && !any) {
                    return;
                }
                long now = nanoClock.getAsLong();
                if (now - windowStart >= TimeUnit.SECONDS.toNanos(1)) {
                    windowStart = now;
                    inWindow = 0;
                }
                if (++inWindow > MAX_LINES_PER_SECOND) {
                    if (!throttleLogged) {
                        throttleLogged = true;
                        LOG.log(Level.WARNING, String.join(" ", command) + " printed more than " + MAX_LINES_PER_SECOND
                                + " lines in a second: reading pauses at that many a second (logged once per start)");
                    }
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, TimeUnit.SECONDS.toNanos(1) - (now - windowStart)));
                    windowStart = nanoClock.getAsLong();
                    inWindow = 1;
                }
                lines.line(line.toString(StandardCharsets.UTF_8));
                line.reset();
                any = false;
                if (b == -1) {
                    return;
                }
            } else {
                any = true;
                if (line.size() < MAX_LINE_BYTES) {
                    line.write(b);
                }
            }
        }
    }

    private boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Stops: ends the child (by its handle) and the reading thread; waits up to
     * {@value #SETTLE_MS} ms for the thread. No {@code onEvent} or {@code onRunning(true)} after
     * this returns, unless the thread outlived the wait.
     */
    @Override
    public void close() {
        Process p;
        synchronized (lock) {
            closed = true;
            p = child;
            lock.notifyAll();
        }
        if (p != null) {
            p.destroyForcibly();
        }
        try {
            thread.join(SETTLE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
