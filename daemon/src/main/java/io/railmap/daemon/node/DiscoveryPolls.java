package io.railmap.daemon.node;

import io.vertx.core.Vertx;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs discovery ({@link LinkWatcher#poll}) once per tick on a Vert.x worker, one poll at a time: a
 * poll starts only after the previous one finished, a tick after the previous one started, or at
 * once when that one took longer than a tick. Polls never queue up behind a slow one (on macOS a
 * poll runs four commands, each allowed 30 s). How long one poll may take is bounded where it
 * blocks: each macOS command by its timeout, each sysfs read by its size.
 *
 * <p>A poll that overruns its tick is logged once, with how long it took; once ten polls in a row
 * kept their tick, that is logged too and the next overrun is logged again.
 */
public final class DiscoveryPolls implements AutoCloseable {
    private static final Logger LOG = System.getLogger(DiscoveryPolls.class.getName());
    /** Polls in a row that must keep their tick before an overrun is logged again. */
    static final int IN_TIME_TO_REARM = 10;

    private final Vertx vertx;
    private final long tickMs;
    private final Runnable poll;
    private final LongSupplier nanoClock;
    private final String what;
    private final String flag;
    private volatile boolean closed;
    private volatile long timer = -1;
    private boolean overrunLogged;
    private int inTime;
    private String lastFailure;

    /**
     * @param vertx  whose workers run the polls and whose timers space them
     * @param tickMs the time from one poll's start to the next's, in ms (at least 1)
     * @param poll   one discovery; a {@link RuntimeException} from it is logged (once until it
     *               changes) and the polls go on
     * @throws IllegalArgumentException when the tick is below 1 ms
     */
    public DiscoveryPolls(Vertx vertx, long tickMs, Runnable poll) {
        this(vertx, tickMs, poll, "discovery", "--link-poll-ms", System::nanoTime);
    }

    /**
     * Polls of something else than discovery (the switch ports from lldpd and infiniband-diags).
     *
     * @param what what a poll does, for log lines ({@code "reading switch ports"})
     * @param flag the flag that sets the tick, for log lines
     * @throws IllegalArgumentException when the tick is below 1 ms
     */
    public DiscoveryPolls(Vertx vertx, long tickMs, Runnable poll, String what, String flag) {
        this(vertx, tickMs, poll, what, flag, System::nanoTime);
    }

    /** @param nanoClock a monotonic clock in ns, which measures how long a poll took */
    DiscoveryPolls(Vertx vertx, long tickMs, Runnable poll, LongSupplier nanoClock) {
        this(vertx, tickMs, poll, "discovery", "--link-poll-ms", nanoClock);
    }

    private DiscoveryPolls(Vertx vertx, long tickMs, Runnable poll, String what, String flag, LongSupplier nanoClock) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("a discovery tick of " + tickMs + " ms is below 1 ms");
        }
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.tickMs = tickMs;
        this.poll = Objects.requireNonNull(poll, "poll");
        this.nanoClock = nanoClock;
        this.what = what;
        this.flag = flag;
    }

    /** Starts the first poll now; the others follow, one a tick, until {@link #close()}. */
    public void start() {
        run();
    }

    private void run() {
        if (closed) {
            return;
        }
        long started = nanoClock.getAsLong();
        vertx.<Void>executeBlocking(() -> {
            poll.run();
            return null;
        }, false).onComplete(done -> {
            String failure = done.failed() ? String.valueOf(done.cause()) : null;
            if (failure != null && !failure.equals(lastFailure)) {
                LOG.log(Level.WARNING, what + " failed: " + failure + " (polled again at every tick; logged again when the failure changes)");
            }
            lastFailure = failure;
            long tookMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - started);
            keptTick(tookMs);
            next(Math.max(1, tickMs - tookMs));
        });
    }

    /** Logs the first overrun, and that polls keep their tick again after ten in a row did. On the event loop. */
    private void keptTick(long tookMs) {
        if (tookMs > tickMs) {
            inTime = 0;
            if (!overrunLogged) {
                overrunLogged = true;
                LOG.log(Level.WARNING, what + " took " + tookMs + " ms, longer than its " + tickMs + " ms tick (" + flag + "):"
                        + " each poll starts when the previous one has finished, so changes are noticed later;"
                        + " further overruns are not logged until polls keep their tick again");
            }
        } else if (overrunLogged && ++inTime >= IN_TIME_TO_REARM) {
            overrunLogged = false;
            LOG.log(Level.INFO, what + " keeps its " + tickMs + " ms tick again (" + IN_TIME_TO_REARM + " polls in a row)");
        }
    }

    private void next(long delayMs) {
        if (closed) {
            return;
        }
        try {
            timer = vertx.setTimer(delayMs, id -> run());
        } catch (IllegalStateException | java.util.concurrent.RejectedExecutionException e) {
            // Vert.x is closing: no more polls
        }
    }

    /** Stops: no poll starts after this; one under way finishes on its worker. */
    @Override
    public void close() {
        closed = true;
        long t = timer;
        if (t >= 0) {
            vertx.cancelTimer(t);
        }
    }
}
