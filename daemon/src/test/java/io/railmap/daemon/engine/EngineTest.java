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
import java.util.UUID;
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

    private static final UUID FIRST_RUN = UUID.fromString("00000000-0000-4000-8000-000000000001");
    private static final UUID SECOND_RUN = UUID.fromString("00000000-0000-4000-8000-000000000002");

    private static NodeRecord record(String node, UUID incarnation, long version, String... netdevs) {
        NodeRecord r = record(node, version, netdevs);
        return new NodeRecord(node, version, r.ports(), Optional.empty(), Optional.empty(), Optional.of(incarnation));
    }

    @Test
    void theOwnRecordMergesPortsAndNeighboursAndItsVersionGrowsOnEveryChangeOnly() {
        Engine engine = new Engine("a", Optional.empty(), FIRST_RUN);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6"), port("a", "en7")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1L, 2L);
        assertThat(published).extracting(NodeRecord::incarnation).containsOnly(Optional.of(FIRST_RUN));
        assertThat(engine.record().port("en6").orElseThrow().neighbours()).containsExactly(PortRef.parse("b:en7"));
        assertThat(engine.record().port("en7").orElseThrow().neighbours()).isEmpty();
    }

    @Test
    void aChangeOfRanksRaisesTheVersionAndTheSameRanksAgainDoNot() {
        Engine engine = new Engine("a", Optional.empty(), FIRST_RUN);
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);
        engine.ports(List.of(port("a", "en6")));
        io.railmap.matrix.model.LocalRank rank = new io.railmap.matrix.model.LocalRank(42, 1_000, Map.of("MLX_RANK", "0"),
                Optional.empty(), Optional.empty(), Optional.empty());

        engine.ranks(List.of(rank));
        engine.ranks(List.of(rank));
        engine.ranks(List.of());

        assertThat(published).extracting(NodeRecord::version).containsExactly(1L, 2L, 3L);
        assertThat(published.get(1).ranks()).containsExactly(rank);
        assertThat(published.get(1).port("en6")).isPresent();
        assertThat(engine.record().ranks()).isEmpty();
    }

    @Test
    void theOwnRecordCarriesTheManagementAddressAndARaisedVersionWhenRdmaIsTurnedOn() {
        Engine engine = new Engine("a", Optional.of("10.231.0.1"));
        List<NodeRecord> published = new ArrayList<>();
        engine.onOwnRecord(published::add);

        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(false));
        engine.ports(List.of(port("a", "en6")), Optional.of(true));

        assertThat(published).extracting(NodeRecord::version).containsExactly(1L, 2L);
        assertThat(published).extracting(NodeRecord::rdmaEnabled).containsExactly(Optional.of(false), Optional.of(true));
        assertThat(engine.record().management()).contains("10.231.0.1");
        assertThat(engine.snapshot().record("a").orElseThrow().management()).contains("10.231.0.1");
    }

    @Test
    void eachStartIsANewIncarnationWhoseVersionsStartAgain() {
        Engine before = new Engine("a");
        for (int i = 0; i < 5; i++) {
            before.ports(List.of(port("a", "en" + i)));
        }
        Engine after = new Engine("a");
        after.ports(List.of(port("a", "en6")));

        assertThat(after.incarnation()).isNotEqualTo(before.incarnation());
        assertThat(after.record().incarnation()).contains(after.incarnation());
        assertThat(after.record().version()).isEqualTo(1).isLessThan(before.record().version());
    }

    @Test
    void withinAnIncarnationTheHigherVersionWinsWhateverTheOrderOfDelivery() {
        Engine engine = new Engine("a");
        assertThat(engine.accept(record("b", FIRST_RUN, 5, "x"))).isEqualTo(Engine.Accepted.NEW);
        assertThat(engine.accept(record("b", FIRST_RUN, 3, "old"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", FIRST_RUN, 5, "same-version-other-content"))).isEqualTo(Engine.Accepted.STALE);
        assertThat(engine.accept(record("b", FIRST_RUN, 7, "y"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.accept(record("b", FIRST_RUN, 6, "late"))).isEqualTo(Engine.Accepted.STALE);

        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("y");
    }

    @Test
    void theVersionsHeldAreTheSnapshotsVersionsOwnIncluded() {
        Engine engine = new Engine("a");
        engine.ports(List.of(port("a", "en6")));
        engine.accept(record("b", FIRST_RUN, 5, "x"));
        engine.accept(record("c", FIRST_RUN, 2, "x"));
        engine.accept(record("b", FIRST_RUN, 7, "y"));
        engine.accept(record("c", FIRST_RUN, 1, "old"));
        engine.forget("c");

        Map<String, Long> fromSnapshot = new java.util.HashMap<>();
        engine.snapshot().records().forEach(r -> fromSnapshot.put(r.node(), r.version()));
        assertThat(engine.versions()).isEqualTo(fromSnapshot).containsOnly(Map.entry("a", 1L), Map.entry("b", 7L));
    }

    @Test
    void aRecordOfAnotherIncarnationReplacesTheOneHeldWhateverTheVersions() {
        Engine engine = new Engine("a");
        // the first run's versions came from a clock that was ahead, the second run's start again at 1
        engine.accept(record("b", FIRST_RUN, 1_795_361_613_310L, "old-run"));

        assertThat(engine.accept(record("b", SECOND_RUN, 1, "new-run"))).isEqualTo(Engine.Accepted.NEWER);
        assertThat(engine.snapshot().record("b").orElseThrow().incarnation()).contains(SECOND_RUN);
        assertThat(engine.snapshot().record("b").orElseThrow().ports()).extracting(Port::netdev).containsExactly("new-run");
    }

    @Test
    void nobodyElseWritesThisNodesRecord() {
        Engine engine = new Engine("a");
        assertThat(engine.accept(record("a", 1_000_000, "forged"))).isEqualTo(Engine.Accepted.OWN);
        assertThat(engine.record().ports()).isEmpty();
    }

    @Test
    void onlyTheRecordsOfEachNodesCurrentMemberRemain() {
        Engine engine = new Engine("a");
        engine.accept(record("b", FIRST_RUN, 1));
        engine.accept(record("c", FIRST_RUN, 1));
        engine.accept(record("d", SECOND_RUN, 1));

        // b has no member left; c's current member is another incarnation; d's is the one held
        assertThat(engine.retainOnly(Map.of("a", engine.incarnation(), "c", SECOND_RUN, "d", SECOND_RUN))).containsExactlyInAnyOrder("b", "c");
        assertThat(engine.snapshot().nodes()).containsExactly("a", "d");
        assertThat(engine.forget("d")).isTrue();
        assertThat(engine.forget("d")).isFalse();
        assertThat(engine.snapshot().nodes()).containsExactly("a");
    }

    @Test
    void readersNeverWaitForTheLockOnceTheSnapshotIsMade() throws Exception {
        Engine engine = new Engine("a");
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
        Engine engine = new Engine("a");
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
