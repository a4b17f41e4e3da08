package io.railmap.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Waiting for a child process with a time limit, and ending it together with every process it
 * started: the one timeout-and-kill that {@link BoundedCommand} and {@code railmap --watch --on-change}
 * share.
 *
 * <p>Descendants are listed before the child is signalled: once the child is gone, its children are
 * re-parented and no longer found through it.
 */
public final class ProcessTree {
    private ProcessTree() {
    }

    /**
     * Waits for a process to exit, at most {@code timeout}; past it, ends it and its descendants
     * ({@link #end}).
     *
     * @param process the child
     * @param timeout how long it may run
     * @param grace   time between SIGTERM and SIGKILL; zero sends SIGKILL at once
     * @return true when it exited within the time limit, false when it was ended
     * @throws InterruptedException when the thread is interrupted while waiting; the process is then
     *                              killed (SIGKILL, with its descendants) before this throws
     */
    public static boolean waitFor(Process process, Duration timeout, Duration grace) throws InterruptedException {
        try {
            if (process.waitFor(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            kill(process);
            throw e;
        }
        end(process, grace);
        return false;
    }

    /**
     * Ends a process and every process it started: SIGTERM to all of them, then SIGKILL to those
     * still alive after {@code grace}. With a zero grace, SIGKILL at once ({@link #kill}).
     * Interrupted while waiting, it sends SIGKILL, and returns with the interrupt flag set.
     *
     * @param process the child
     * @param grace   time between SIGTERM and SIGKILL
     */
    public static void end(Process process, Duration grace) {
        if (grace.isZero() || grace.isNegative()) {
            kill(process);
            return;
        }
        List<ProcessHandle> tree = process.descendants().toList();
        tree.forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Kills a process and every process it started (SIGKILL); does not wait.
     *
     * @param process the child, alive or not
     */
    public static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
