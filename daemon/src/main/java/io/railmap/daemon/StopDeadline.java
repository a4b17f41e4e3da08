package io.railmap.daemon;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.IntConsumer;

/**
 * How railmapd ends on SIGTERM or SIGINT, whatever its parts do: the orderly stop runs under a
 * deadline, and the JVM is halted when it is over. A stop that finishes in time halts with
 * {@value #EXIT_STOPPED} (a clean stop, for systemd and launchd; the JVM's own exit after a signal
 * would be 143); one still running at the deadline is logged and halted with {@value #EXIT_HALTED}.
 * Halting, rather than exiting, also ends whatever thread a library left running.
 */
final class StopDeadline {
    private static final Logger LOG = System.getLogger(StopDeadline.class.getName());
    /** From the stop signal to the last-resort halt, in ms: below systemd's and launchd's 10 s before SIGKILL. */
    static final long DEADLINE_MS = 5_000;
    /** Exit code of a clean stop. */
    static final int EXIT_STOPPED = 0;
    /** Exit code when stopping outlasted the deadline. */
    static final int EXIT_HALTED = 4;

    private StopDeadline() {
    }

    /**
     * Runs the stop, then halts; halts anyway after the deadline. Returns only if {@code halt}
     * returns (in tests).
     *
     * @param stop       the orderly stop; an exception from it is logged
     * @param deadlineMs how long it may take, in ms
     * @param halt       ends the process with a code: {@code Runtime.getRuntime()::halt}
     */
    static void run(Runnable stop, long deadlineMs, IntConsumer halt) {
        Thread deadline = new Thread(() -> {
            try {
                Thread.sleep(deadlineMs);
            } catch (InterruptedException stopped) {
                return;
            }
            LOG.log(Level.ERROR, "still stopping " + deadlineMs + " ms after the stop signal: halting (exit " + EXIT_HALTED + ")");
            Logs.finish();
            halt.accept(EXIT_HALTED);
        }, "railmapd-stop-deadline");
        deadline.setDaemon(true);
        deadline.start();
        try {
            stop.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "stopping failed: " + e);
        }
        deadline.interrupt();
        Logs.finish();
        halt.accept(EXIT_STOPPED);
    }
}
