package io.railmap.daemon.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.ChangeFeed;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.testing.SyntheticRecords;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Rebuilds are coalesced, run on their own thread, and always end on the last state. */
class RebuildsTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void requestsWhileARebuildRunsMakeOneMoreRebuildAndItSeesTheLastState() throws Exception {
        AtomicInteger state = new AtomicInteger();
        List<Integer> seen = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Rebuilds rebuilds = new Rebuilds(() -> {
            threads.add(Thread.currentThread().getName());
            firstStarted.countDown();
            await().atMost(BOUND).until(() -> release.getCount() == 0);
            seen.add(state.get());
        })) {
            rebuilds.request();
            assertThat(firstStarted.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

            for (int i = 1; i <= 10_000; i++) {
                state.set(i);
                rebuilds.request(); // never waits for the rebuild that is held
            }
            release.countDown();

            await("the last state is rebuilt").atMost(BOUND).until(() -> seen.contains(10_000));
            await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> seen.size() == 2);
            assertThat(seen).containsExactly(10_000, 10_000);
            assertThat(threads).containsOnly(Rebuilds.THREAD);
        }
    }

    @Test
    void aRebuildThatThrowsIsLoggedAndTheNextRequestRebuildsAgain() {
        AtomicInteger runs = new AtomicInteger();
        try (Rebuilds rebuilds = new Rebuilds(() -> {
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("a bug in a rebuild");
            }
        })) {
            rebuilds.request();
            await().atMost(BOUND).until(() -> runs.get() == 1);
            await("the first rebuild's rest is over").atMost(BOUND).until(() -> {
                rebuilds.request();
                return runs.get() >= 2;
            });
        }
    }

    @Test
    void afterCloseNoRebuildRuns() {
        AtomicInteger runs = new AtomicInteger();
        Rebuilds rebuilds = new Rebuilds(runs::incrementAndGet);
        rebuilds.close();

        rebuilds.request();

        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> runs.get() == 0);
    }

    /**
     * The daemon's wiring: a thousand records taken by the real engine while the topology log's
     * rebuild is held; none of them waits for it, and the rebuilds that follow are a few, the last of
     * them logging the topology of every record.
     */
    @Test
    void aThousandRecordsAreTakenWhileARebuildIsHeldAndTheLastRebuildSeesThemAll() throws Exception {
        Engine engine = new Engine("a");
        ChangeFeed log = new ChangeFeed(new EventLog());
        List<String> lines = new CopyOnWriteArrayList<>();
        AtomicInteger rebuilt = new AtomicInteger();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Rebuilds rebuilds = new Rebuilds(() -> {
            held.countDown();
            await().atMost(BOUND).until(() -> release.getCount() == 0);
            rebuilt.incrementAndGet();
            String line = log.observe(engine.snapshot());
            if (line != null) {
                lines.add(line);
            }
        })) {
            engine.onChange(rebuilds::request);
            List<NodeRecord> records = SyntheticRecords.ring(1_000, 1);
            engine.accept(records.get(0));
            assertThat(held.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Void> taking = CompletableFuture.runAsync(() -> records.forEach(engine::accept));
            taking.get(BOUND.toSeconds(), TimeUnit.SECONDS); // never waits for the rebuild held
            release.countDown();

            Snapshot all = engine.snapshot();
            assertThat(all.records()).hasSize(1_001);
            String whole = "; " + Topology.of(all).cables().size() + " cables among 1001 nodes; ring: true";
            await("the last rebuild logs every record's cables").atMost(BOUND).until(() -> lines.stream().anyMatch(l -> l.endsWith(whole)));
            await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> rebuilt.get() == 2);
            assertThat(lines).hasSize(1).first().asString().startsWith("topology: +2000 (s0000:en1\u2013s0001:en3, ").contains(", and 1990 more), -0");
        }
    }
}
