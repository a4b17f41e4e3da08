package io.railmap.daemon.api;

import io.netty.util.concurrent.EventExecutor;
import io.railmap.daemon.cluster.Cluster;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Notices a daemon that is stuck, for {@code /healthz}. Every tick ({@value #TICK_MS} ms) it checks:
 * <ul>
 *   <li>every Vert.x event loop and acceptor loop ({@code VertxInternal.nettyEventLoopGroup()},
 *       {@code acceptorEventLoopGroup()}): a no-op task is handed to the loop, and a loop that has
 *       not run it within {@value #STUCK_TICKS} ticks is stuck (a handler blocking it: the API, the
 *       probe or discovery's timers stop on that loop; new connections wait);</li>
 *   <li>the cluster member: stuck when its JGroups channel is not connected, or when its record
 *       intake has not answered for {@value #STUCK_TICKS} ticks: a call to
 *       {@link Cluster#membership()}, which takes the lock every received record and view change
 *       holds, made on a thread of its own, has not returned.</li>
 * </ul>
 * Time is counted in ticks the watch itself saw, not by the clock, so a process that was frozen
 * (SIGSTOP, a suspended VM) and resumes is not taken for stuck. At most one check of each kind is
 * outstanding, so a stuck part costs nothing more while it stays stuck. Turning unhealthy and
 * healthy again are logged once each.
 *
 * <p>Threads: {@code railmap-health} (the ticks) and {@code railmap-health-cluster} (the intake
 * check), both daemon threads, ended by {@link #close()}.
 */
public final class HealthWatch implements AutoCloseable {
    private static final Logger LOG = System.getLogger(HealthWatch.class.getName());
    /** How often the checks run, in ms. */
    public static final long TICK_MS = 1_000;
    /** Ticks a check may stay unanswered before its part is reported stuck (5 s at {@value #TICK_MS} ms). */
    public static final int STUCK_TICKS = 5;

    private final Cluster cluster;
    private final long tickMs;
    private final int stuckTicks;
    private final List<Ping> pings = new ArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "railmap-health"));
    private final ExecutorService intake = Executors.newSingleThreadExecutor(r -> thread(r, "railmap-health-cluster"));
    private volatile List<String> problems = List.of();

    /** Watches with {@value #TICK_MS} ms ticks and {@value #STUCK_TICKS} ticks to be stuck. */
    public HealthWatch(Vertx vertx, Cluster cluster) {
        this(vertx, cluster, TICK_MS, STUCK_TICKS);
    }

    /**
     * @param vertx      whose event loops are watched
     * @param cluster    the cluster member watched
     * @param tickMs     how often the checks run, in ms
     * @param stuckTicks ticks a check may stay unanswered
     */
    HealthWatch(Vertx vertx, Cluster cluster, long tickMs, int stuckTicks) {
        this.cluster = cluster;
        this.tickMs = tickMs;
        this.stuckTicks = stuckTicks;
        // Vert.x 5 offers its Netty loops to integrators only (io.vertx.core.internal)
        VertxInternal internal = (VertxInternal) vertx;
        int i = 0;
        for (EventExecutor loop : internal.nettyEventLoopGroup()) {
            pings.add(new Ping("event loop " + i++, "a handler is blocking it", loop, null));
        }
        i = 0;
        for (EventExecutor loop : internal.acceptorEventLoopGroup()) {
            pings.add(new Ping("acceptor loop " + i++, "no new connection can be taken", loop, null));
        }
        pings.add(new Ping("the cluster's record intake", "its lock is held", intake, cluster::membership));
        ticker.scheduleWithFixedDelay(this::tick, 0, tickMs, TimeUnit.MILLISECONDS);
    }

    private static Thread thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** @return one sentence per stuck part, as of the last tick; empty when healthy */
    public List<String> problems() {
        return problems;
    }

    private void tick() {
        List<String> found = new ArrayList<>();
        if (!cluster.connected()) {
            found.add("the cluster member is not connected (its JGroups channel was closed or never connected)");
        }
        for (Ping ping : pings) {
            String problem = ping.tick();
            if (problem != null) {
                found.add(problem);
            }
        }
        List<String> before = problems;
        problems = List.copyOf(found);
        if (before.isEmpty() && !found.isEmpty()) {
            LOG.log(Level.WARNING, "unhealthy: " + String.join("; ", found));
        } else if (!before.isEmpty() && found.isEmpty()) {
            LOG.log(Level.INFO, "healthy again");
        }
    }

    /** Stops the checks; a check under way is abandoned. */
    @Override
    public void close() {
        ticker.shutdownNow();
        intake.shutdownNow();
    }

    /** One part's check: a task handed to it, which it runs if it is not stuck. */
    private final class Ping {
        private final String what;
        private final String why;
        private final Executor where;
        private final Runnable task;
        private volatile boolean done = true;
        private volatile String thread;
        private int pendingTicks;

        Ping(String what, String why, Executor where, Runnable task) {
            this.what = what;
            this.why = why;
            this.where = where;
            this.task = task;
        }

        /** @return a sentence when the part is stuck, else null */
        String tick() {
            if (done) {
                done = false;
                pendingTicks = 0;
                try {
                    where.execute(this::run);
                } catch (RejectedExecutionException closing) {
                    done = true; // Vert.x is closing
                }
                return null;
            }
            pendingTicks++;
            if (pendingTicks < stuckTicks) {
                return null;
            }
            String name = thread == null || task != null ? what : what + " (" + thread + ")";
            return name + " has not answered a check for " + String.format(Locale.ROOT, "%.1f", pendingTicks * tickMs / 1000.0) + " s: " + why;
        }

        private void run() {
            try {
                if (task != null) {
                    task.run();
                }
                thread = Thread.currentThread().getName();
            } finally {
                done = true;
            }
        }
    }
}
