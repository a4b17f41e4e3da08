package io.railmap.daemon.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.PortSource;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Discovery polls on a real Vert.x with a real {@link LinkWatcher}: one at a time, none queued;
 * requested polls (link events) coalesced; the tick changed while they run.
 */
class DiscoveryPollsTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final long TICK_MS = 50;
    private final Vertx vertx = Vertx.vertx();
    private final List<DiscoveryPolls> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(DiscoveryPolls::close);
        vertx.close().await();
    }

    private DiscoveryPolls track(DiscoveryPolls polls) {
        started.add(polls);
        return polls;
    }

    @Test
    void aPollThatBlocksIsNeverOverlappedAndNoPollsQueueUpBehindIt() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        List<Long> starts = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        PortSource blocksFirst = () -> {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            starts.add(System.nanoTime());
            try {
                if (starts.size() == 1) {
                    release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
            }
            return Discovery.builder("a").build();
        };
        LinkWatcher watcher = new LinkWatcher(blocksFirst, d -> { });
        track(new DiscoveryPolls(vertx, TICK_MS, watcher::poll)).start();
        await().atMost(BOUND).until(() -> starts.size() == 1);

        // ten ticks and more go by while the first poll blocks: no other starts
        await().during(Duration.ofMillis(10 * TICK_MS)).atMost(BOUND).until(() -> starts.size() == 1);
        long released = System.nanoTime();
        release.countDown();
        await().atMost(BOUND).until(() -> starts.size() >= 8);

        assertThat(mostInside.get()).as("polls running at once").isEqualTo(1);
        // a queue of the ticks missed would start ten polls at once; one a tick is the most there may be
        List<Long> after = starts.subList(1, starts.size());
        long ticksSinceRelease = TimeUnit.NANOSECONDS.toMillis(after.get(after.size() - 1) - released) / TICK_MS;
        assertThat(after.size()).as("polls started in %d ticks after the slow one", ticksSinceRelease).isLessThanOrEqualTo((int) ticksSinceRelease + 2);
    }

    @Test
    void anOverrunIsLoggedOnceAndAgainOnlyAfterTenPollsKeptTheirTick() {
        // each poll "takes" the next of these durations, in ticks, on a clock the polls move themselves
        int[] took = {3, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0};
        AtomicLong clock = new AtomicLong();
        AtomicInteger done = new AtomicInteger();
        List<String> lines = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(DiscoveryPolls.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(done.get() + ": " + record.getMessage()); // the poll that just finished, from 1
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            Runnable poll = () -> {
                int i = done.get();
                clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(i < took.length ? took[i] * TICK_MS + 1 : 0));
                done.incrementAndGet();
            };
            track(new DiscoveryPolls(vertx, TICK_MS, poll, clock::get)).start();

            await().atMost(BOUND).until(() -> done.get() >= took.length + 1);
        } finally {
            logger.removeHandler(capture);
        }

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("1: discovery took 151 ms, longer than its 50 ms tick (--link-poll-ms)");
        assertThat(lines.get(1)).isEqualTo("18: discovery keeps its 50 ms tick again (10 polls in a row)");
        assertThat(lines.get(2)).startsWith("19: discovery took 201 ms, longer than its 50 ms tick");
    }

    @Test
    void aBurstOfRequestsIsOnePollAndRequestsDuringAPollMakeExactlyOneMore() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger mostInside = new AtomicInteger();
        CountDownLatch[] block = {new CountDownLatch(0)};
        Runnable poll = () -> {
            mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            polls.incrementAndGet();
            try {
                block[0].await(BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
            }
        };
        // a tick of a minute: every poll after the first is a requested one
        DiscoveryPolls discovery = track(new DiscoveryPolls(vertx, 60_000, poll));
        discovery.start();
        await().atMost(BOUND).until(() -> polls.get() == 1 && inside.get() == 0);

        for (int i = 0; i < 1_000; i++) {
            discovery.request();
        }
        await().atMost(BOUND).until(() -> polls.get() >= 2 && inside.get() == 0);
        await().during(Duration.ofMillis(5 * DiscoveryPolls.MIN_REQUESTED_GAP_MS)).atMost(BOUND).until(() -> polls.get() <= 3);
        int afterBurst = polls.get();

        block[0] = new CountDownLatch(1);
        discovery.request();
        await().atMost(BOUND).until(() -> polls.get() == afterBurst + 1);
        for (int i = 0; i < 1_000; i++) {
            discovery.request(); // while that poll runs
        }
        block[0].countDown();
        await().atMost(BOUND).until(() -> polls.get() == afterBurst + 2);
        await().during(Duration.ofMillis(5 * DiscoveryPolls.MIN_REQUESTED_GAP_MS)).atMost(BOUND).until(() -> polls.get() == afterBurst + 2);
        assertThat(mostInside.get()).as("polls running at once").isEqualTo(1);
    }

    @Test
    void aShorterTickTakesEffectAtOnceWithoutWaitingForTheLongOne() {
        AtomicInteger polls = new AtomicInteger();
        DiscoveryPolls discovery = track(new DiscoveryPolls(vertx, 60_000, polls::incrementAndGet));
        discovery.start();
        await().atMost(BOUND).until(() -> polls.get() == 1);

        discovery.tick(TICK_MS, "--link-poll-ms");

        await().atMost(BOUND).until(() -> polls.get() >= 5);
        assertThat(discovery.tickMs()).isEqualTo(TICK_MS);
    }
}
