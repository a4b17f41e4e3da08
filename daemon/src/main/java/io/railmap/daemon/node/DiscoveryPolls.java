package io.railmap.daemon.node;

import io.vertx.core.Vertx;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs discovery ({@link LinkWatcher#poll}) on a Vert.x worker, one poll at a time: once per tick,
 * and soon after each {@link #request()} (a link event). A poll starts only after the previous one
 * finished: a tick after the previous one started, or at once when that one took longer than a
 * tick. Polls never queue up behind a slow one (on macOS a poll runs four commands, each allowed
 * 30 s). How long one poll may take is bounded where it blocks: each macOS command by its timeout,
 * each sysfs read by its size.
 *
 * <p>Requests are coalesced: a requested poll starts {@value #COALESCE_MS} ms after the request
 * (so a burst of events is one poll) and at least {@value #MIN_REQUESTED_GAP_MS} ms after the
 * previous poll started (so a flood of events costs at most one poll per that time); requests
 * made while a poll runs make one more poll after it.
 *
 * <p>A poll that overruns its tick is logged once, with how long it took; once ten polls in a row
 * kept their tick, that is logged too and the next overrun is logged again.
 */
public final class DiscoveryPolls implements AutoCloseable {
    private static final Logger LOG = System.getLogger(DiscoveryPolls.class.getName());
    /** Polls in a row that must keep their tick before an overrun is logged again. */
    static final int IN_TIME_TO_REARM = 10;
    /** How long a requested poll waits for more requests, in ms: a burst of events is one poll. */
    static final long COALESCE_MS = 20;
    /** The shortest time from one poll's start to a requested poll's start, in ms. */
    static final long MIN_REQUESTED_GAP_MS = 100;

    private final Vertx vertx;
    private final Runnable poll;
    private final LongSupplier nanoClock;
    private final String what;
    // guarded by this; never held while a poll runs
    private long tickMs;
    private String flag;
    private boolean closed;
    private boolean running;
    private boolean requested;
    private long timer = -1;
    private long timerAt;
    private long lastStart;
    // on the completion handler only, one poll at a time
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
        checkTick(tickMs);
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.tickMs = tickMs;
        this.poll = Objects.requireNonNull(poll, "poll");
        this.nanoClock = nanoClock;
        this.what = what;
        this.flag = flag;
    }

    private static void checkTick(long tickMs) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("a discovery tick of " + tickMs + " ms is below 1 ms");
        }
    }

    /** Starts the first poll now; the others follow, one a tick, until {@link #close()}. */
    public synchronized void start() {
        start(-1);
    }

    /**
     * Asks for a poll soon (a link changed); returns at once, from any thread. Coalesced with other
     * requests and never before the running poll has finished (see the class). Does nothing after
     * {@link #close()}.
     */
    public synchronized void request() {
        if (closed) {
            return;
        }
        if (running) {
            requested = true;
            return;
        }
        long sinceLastMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - lastStart);
        schedule(Math.max(COALESCE_MS, MIN_REQUESTED_GAP_MS - sinceLastMs));
    }

    /**
     * Changes the tick from the next poll on (from any thread): the next poll starts the new tick
     * after the last one started, or sooner when one is already due sooner.
     *
     * @param newTickMs the time from one poll's start to the next's, in ms (at least 1)
     * @param newFlag   the flag that sets it, for log lines
     * @throws IllegalArgumentException when the tick is below 1 ms
     */
    public synchronized void tick(long newTickMs, String newFlag) {
        checkTick(newTickMs);
        tickMs = newTickMs;
        flag = Objects.requireNonNull(newFlag, "newFlag");
        if (!closed && !running && timer >= 0) {
            long sinceLastMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - lastStart);
            schedule(Math.max(1, tickMs - sinceLastMs));
        }
    }

    /** @return the current tick, in ms */
    public synchronized long tickMs() {
        return tickMs;
    }

    /** Sets the timer of the next poll, unless one is already set to start sooner. Holding this. */
    private void schedule(long delayMs) {
        long at = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(delayMs);
        if (timer >= 0) {
            if (timerAt - at <= 0) {
                return;
            }
            vertx.cancelTimer(timer);
        }
        try {
            timerAt = at;
            timer = vertx.setTimer(delayMs, this::start);
        } catch (IllegalStateException | java.util.concurrent.RejectedExecutionException e) {
            timer = -1; // Vert.x is closing: no more polls
        }
    }

    /** A timer fired (or {@link #start()} with -1): runs a poll unless the timer was replaced. */
    private synchronized void start(long firedTimer) {
        if (closed || running || firedTimer != timer) {
            return;
        }
        timer = -1;
        running = true;
        requested = false;
        lastStart = nanoClock.getAsLong();
        long started = lastStart;
        vertx.<Void>executeBlocking(() -> {
            poll.run();
            return null;
        }, false).onComplete(done -> finished(started, done.failed() ? String.valueOf(done.cause()) : null));
    }

    private void finished(long started, String failure) {
        if (failure != null && !failure.equals(lastFailure)) {
            LOG.log(Level.WARNING, what + " failed: " + failure + " (polled again at every tick; logged again when the failure changes)");
        }
        lastFailure = failure;
        long tookMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - started);
        long tick;
        String tickFlag;
        synchronized (this) {
            tick = tickMs;
            tickFlag = flag;
        }
        keptTick(tookMs, tick, tickFlag);
        synchronized (this) {
            running = false;
            if (closed) {
                return;
            }
            schedule(requested ? Math.max(COALESCE_MS, MIN_REQUESTED_GAP_MS - tookMs) : Math.max(1, tickMs - tookMs));
            requested = false;
        }
    }

    /** Logs the first overrun, and that polls keep their tick again after ten in a row did. One poll at a time. */
    private void keptTick(long tookMs, long tick, String tickFlag) {
        if (tookMs > tick) {
            inTime = 0;
            if (!overrunLogged) {
                overrunLogged = true;
                LOG.log(Level.WARNING, what + " took " + tookMs + " ms, longer than its " + tick + " ms tick (" + tickFlag + "):"
                        + " each poll starts when the previous one has finished, so changes are noticed later;"
                        + " further overruns are not logged until polls keep their tick again");
            }
        } else if (overrunLogged && ++inTime >= IN_TIME_TO_REARM) {
            overrunLogged = false;
            LOG.log(Level.INFO, what + " keeps its " + tick + " ms tick again (" + IN_TIME_TO_REARM + " polls in a row)");
        }
    }

    /** Stops: no poll starts after this; one under way finishes on its worker. */
    @Override
    public synchronized void close() {
        closed = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
