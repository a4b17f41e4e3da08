package io.railmap.daemon.node;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs what is rebuilt from the records (the topology and its change log, {@link io.railmap.daemon.events.ChangeFeed}) on a
 * thread of its own, coalesced: {@link #request()} never waits, and a burst of requests, however
 * long, makes at most two rebuilds while one runs (the one running and one more), so every rebuild
 * reads the state as it is when it starts and the last state is always rebuilt. After each
 * rebuild the thread rests as long as the rebuild took (at most {@value #MAX_REST_MS} ms) before it
 * starts the next, so a long burst costs at most half a core and leaves the rest to the event loops.
 *
 * <p>Why: {@code Topology.of} takes milliseconds per hundred nodes (40 ms at 1,000), and changes
 * arrive on the probe's event loop, on JGroups' threads and with views that take a thousand records
 * at once; rebuilding there, on every change, held hello timers for tens of seconds.
 *
 * <p>Mechanism: a {@link ThreadPoolExecutor} of one thread whose queue holds one task and which
 * discards a request when that one is already waiting. The thread ({@value #THREAD}, a daemon
 * thread) ends after {@value #IDLE_S} s without requests and is made again by the next. A rebuild
 * that throws is logged (one line) and the next request rebuilds again.
 */
public final class Rebuilds implements AutoCloseable {
    private static final Logger LOG = System.getLogger(Rebuilds.class.getName());
    /** The rebuild thread's name. */
    public static final String THREAD = "railmap-rebuild";
    /** Seconds the rebuild thread stays without a request before it ends. */
    static final long IDLE_S = 30;
    /** The longest rest after a rebuild, in ms. */
    static final long MAX_REST_MS = 1_000;

    private final Runnable rebuild;
    private final ThreadPoolExecutor thread;

    /** @param rebuild reads the current state and rebuilds from it; runs on the rebuild thread only */
    public Rebuilds(Runnable rebuild) {
        this.rebuild = Objects.requireNonNull(rebuild, "rebuild");
        this.thread = new ThreadPoolExecutor(1, 1, IDLE_S, TimeUnit.SECONDS, new ArrayBlockingQueue<>(1), r -> {
            Thread t = new Thread(r, THREAD);
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardPolicy());
        thread.allowCoreThreadTimeOut(true);
    }

    /**
     * Asks for a rebuild after this moment; returns at once, from any thread. Does nothing when a
     * rebuild is already waiting to start (it will see this change) or after {@link #close()}.
     */
    public void request() {
        thread.execute(this::run);
    }

    private void run() {
        long start = System.nanoTime();
        try {
            rebuild.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "rebuilding the topology failed: " + e + " (rebuilt again at the next change)");
        }
        try {
            Thread.sleep(Math.min(MAX_REST_MS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /** Stops: a rebuild under way is interrupted and none starts again; waits at most 1 s for it. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
