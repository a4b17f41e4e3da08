package io.railmap.daemon.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class EngineTest {
    private static Port port(String node, String netdev) {
        return new Port(node, netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.of(10.0), PortState.ACTIVE,
                Optional.empty(), List.of());
    }

    private static NodeRecord record(String node, long version, String... netdevs) {
        List<Port> ports = new ArrayList<>();
        for (String n : netdevs) {
            ports.add(port(node, n));
        }
        return new NodeRecord(node, version, ports);
    }

    @Test
    void theOwnRecordMergesPortsAndNeighboursAndItsVersionGrowsOnEveryChangeOnly() {
        Engine engine = new Engine("a", () -> 1_000);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6"), port("a", "en7")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1_001L, 1_002L);
        assertThat(engine.record().port("en6").orElseThrow().neighbours()).containsExactly(PortRef.parse("b:en7"));
        assertThat(engine.record().port("en7").orElseThrow().neighbours()).isEmpty();
    }

    @Test
    void theOwnRecordCarriesTheManagementAddressAndARaisedVersionWhenRdmaIsTurnedOn() {
        Engine engine = new Engine("a", Optional.of("10.231.0.1"), () -> 1_000);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(true));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1_001L, 1_002L);
        assertThat(published).extracting(NodeRecord::rdmaEnabled).containsExactly(Optional.of(false), Optional.of(true));
        assertThat(engine.record().management()).contains("10.231.0.1");
        assertThat(engine.snapshot().record("a").orElseThrow().management()).contains("10.231.0.1");
    }

    @Test
    void aRestartedDaemonStartsAboveItsOldVersions() {
        Engine before = new Engine("a", () -> 1_000);
        before.ports(List.of(port("a", "en6")));
        Engine after = new Engine("a", () -> 5_000);
        after.ports(List.of(port("a", "en6")));
        assertThat(after.record().version()).isGreaterThan(before.record().version());
    }

    @Test
    void theNewestVersionWinsWhateverTheOrderOfDelivery() {
        Engine engine = new Engine("a", () -> 0);
        assertThat(engine.accept(record("b", 5, "x"))).isEqualTo(Engine.Accepted.NEW);
        assertThat(engine.accept(record("b", 3, "old"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", 5, "same-version-other-content"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", 7, "y"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.accept(record("b", 6, "late"))).isEqualTo(Engine.Accepted.STALE);

        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("y");
    }

    @Test
    void nobodyElseWritesThisNodesRecord() {
        Engine engine = new Engine("a", () -> 10);
        assertThat(engine.accept(record("a", 1_000_000, "forged"))).isEqualTo(Engine.Accepted.OWN);
        assertThat(engine.record().ports()).isEmpty();
    }

    @Test
    void aNodeThatIsNoLongerAMemberLosesItsRecordAndNothingElseDoes() {
        Engine engine = new Engine("a", () -> 0);
        engine.accept(record("b", 1));
        engine.accept(record("c", 1));

        assertThat(engine.retainOnly(List.of("a", "c"))).containsExactly("b");
        assertThat(engine.snapshot().nodes()).containsExactly("a", "c");
        assertThat(engine.forget("c")).isTrue();
        assertThat(engine.forget("c")).isFalse();
        assertThat(engine.snapshot().nodes()).containsExactly("a");
    }

    @Test
    void readersNeverWaitForTheLockOnceTheSnapshotIsMade() throws Exception {
        Engine engine = new Engine("a", () -> 0);
        engine.accept(record("b", 1, "x"));
        Snapshot made = engine.snapshot();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (engine) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        try {
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

            CompletableFuture<Snapshot> read = CompletableFuture.supplyAsync(() -> {
                engine.record();
                return engine.snapshot();
            });

            assertThat(read.get(30, TimeUnit.SECONDS)).isSameAs(made);
        } finally {
            release.countDown();
            holder.join();
        }
    }

    /**
     * Seeded, repeated: writers take newer records of their own nodes while readers read snapshots
     * as fast as they can; every change listener, run right after its change, finds that change (or
     * a later one) in the snapshot, and each reader's snapshots never go back.
     */
    @RepeatedTest(20)
    void aChangeListenerAlwaysFindsItsChangeInTheSnapshot(RepetitionInfo repetition) throws Exception {
        Random random = new Random(7_000 + repetition.getCurrentRepetition());
        Engine engine = new Engine("a", () -> 0);
        ThreadLocal<NodeRecord> taking = new ThreadLocal<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        engine.onChange(() -> {
            NodeRecord taken = taking.get();
            if (taken != null) {
                long held = engine.snapshot().record(taken.node()).map(NodeRecord::version).orElse(-1L);
                if (held < taken.version()) {
                    problems.add("after taking " + taken.node() + " v" + taken.version() + " the snapshot holds v" + held);
                }
            }
        });
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    Map<String, Long> last = new HashMap<>();
                    while (writing.get()) {
                        for (NodeRecord held : engine.snapshot().records()) {
                            Long before = last.put(held.node(), held.version());
                            if (before != null && before > held.version()) {
                                problems.add("a reader saw " + held.node() + " go back from v" + before + " to v" + held.version());
                            }
                        }
                    }
                }));
            }
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                String prefix = "w" + w + "n";
                long seed = random.nextLong();
                writers.add(pool.submit(() -> {
                    Random mine = new Random(seed);
                    long[] versions = new long[8];
                    for (int i = 0; i < 2_000; i++) {
                        int n = mine.nextInt(versions.length);
                        versions[n] += 1 + mine.nextInt(3);
                        NodeRecord next = record(prefix + n, versions[n], "p" + mine.nextInt(4));
                        taking.set(next);
                        engine.accept(next);
                    }
                }));
            }
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
            writing.set(false);
            for (Future<?> r : readers) {
                r.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(problems).isEmpty();
        assertThat(engine.snapshot().records()).hasSize(1 + 16);
    }
}
