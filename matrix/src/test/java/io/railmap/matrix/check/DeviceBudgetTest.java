package io.railmap.matrix.check;

import static io.railmap.matrix.check.CheckerTest.cells;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class DeviceBudgetTest {
    private static final List<String> HUB_AND_THREE = List.of("hub", "a", "b", "c");

    /** A hub whose one Thunderbolt port en2 (limits as given) reaches a; a, b and c cabled in a line. */
    private static Topology hub(Optional<RdmaLimits> limits) {
        return hub(limits, Optional.empty());
    }

    /** The same hub, its en2's Thunderbolt facts as given (a Linux XDomain link's, say). */
    private static Topology hub(Optional<RdmaLimits> limits, Optional<Thunderbolt> link) {
        Cluster c = new Cluster().cable("hub:en2", "a:en2").cable("a:en3", "b:en3").cable("b:en4", "c:en4").cable("c:en5", "hub:en5");
        for (String[] end : new String[][] {{"hub", "en2", "a"}, {"a", "en2", "hub"}}) {
            c.put(new Port(end[0], end[1], Optional.of("rdma_" + end[1]), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                    end[0].equals("hub") ? link : Optional.<Thunderbolt>empty(), List.of(), Map.of(), false, Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), end[0].equals("hub") ? limits : Optional.empty(), List.of(new PortRef(end[2], "en2"))));
        }
        return Topology.of(c.snapshot());
    }

    /** The hub names rdma_en2 towards every peer: a mesh of 4 opens it 3 times, a ring of 4 twice. */
    private static final List<List<List<String>>> HUB_MESH = cells("-|rdma_en2|rdma_en2|rdma_en2", "rdma_en2|-|rdma_en3|rdma_en3",
            "rdma_en2|rdma_en3|-|rdma_en4", "rdma_en2|rdma_en4|rdma_en4|-");
    private static final List<List<List<String>>> HUB_RING = cells("-|rdma_en2|-|rdma_en2", "rdma_en2|-|rdma_en3|-",
            "-|rdma_en3|-|rdma_en4", "rdma_en5|-|rdma_en4|-");

    private static List<Finding> budget(List<Finding> findings) {
        return findings.stream().filter(f -> f.code() == Code.TOO_MANY_QUEUE_PAIRS || f.code() == Code.TOO_MANY_MEMORY_REGIONS).toList();
    }

    @Test
    void aHubWhoseDeviceReportsMaxQp3FailsAMeshOfFourButNotARing() {
        // mesh.cpp MeshGroup::initialize: one queue pair per peer; ring.cpp RingGroup::initialize: one per wire left and right
        Topology t = hub(RdmaLimits.of(3, 6, 100, null));
        List<Finding> mesh = budget(Checker.check(t, HUB_AND_THREE, HUB_MESH, Mode.MESH, MlxVersion.NEWEST));
        assertThat(mesh).extracting(f -> f.code().externalName())
                .containsExactlyInAnyOrder("too-many-queue-pairs", "too-many-memory-regions");
        Finding qp = mesh.stream().filter(f -> f.code() == Code.TOO_MANY_QUEUE_PAIRS).findFirst().orElseThrow();
        assertThat(qp.ranks()).containsExactly(0);
        assertThat(qp.ports()).containsExactly(PortRef.parse("hub:en2"));
        assertThat(qp.message()).contains("rank 0 (hub) uses \"rdma_en2\" for 3 queue pairs", "at most 2", "max_qp 3",
                "ibv_devinfo -v, in hub's record", "EBUSY");
        Finding mr = mesh.stream().filter(f -> f.code() == Code.TOO_MANY_MEMORY_REGIONS).findFirst().orElseThrow();
        assertThat(mr.message()).contains("192 memory regions", "64 each", "max_mr 100");

        assertThat(budget(Checker.check(t, HUB_AND_THREE, HUB_RING, Mode.RING, MlxVersion.NEWEST))).isEmpty();
    }

    @Test
    void withoutTheDevicesOwnNumberTheThunderboltLimitIsUsedAndSaidSo() {
        Topology unknown = hub(Optional.empty());
        assertThat(budget(Checker.check(unknown, HUB_AND_THREE, HUB_MESH, Mode.MESH, MlxVersion.NEWEST))).isEmpty();
        // two ranks, a ring of 4 wires all on rdma_en2 at rank 0: ring.cpp opens left and right, the same peer, 8 times
        List<List<List<String>>> eight = cells("-|rdma_en2+rdma_en2+rdma_en2+rdma_en2", "rdma_en2+rdma_en2+rdma_en2+rdma_en2|-");
        List<String> two = List.of("hub", "a");
        List<Finding> eightOnOne = budget(Checker.check(unknown, two, eight, Mode.RING, MlxVersion.NEWEST));
        assertThat(eightOnOne).isEmpty();
        List<List<List<String>>> ten = cells("-|rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2",
                "rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2|-");
        assertThat(budget(Checker.check(unknown, two, ten, Mode.RING, MlxVersion.NEWEST)))
                .filteredOn(f -> f.ranks().equals(List.of(0))).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("for 12 queue pairs", "at most 10",
                        "the Thunderbolt limit measured in mlx issue 3162", "does not say this device's max_qp"));
        // a device's own number wins over the constant, also upwards
        Topology roomy = hub(RdmaLimits.of(20, null, null, null));
        assertThat(budget(Checker.check(roomy, two, ten, Mode.RING, MlxVersion.NEWEST))).noneMatch(f -> f.ranks().equals(List.of(0)));
    }

    /** Apple's rules (one queue pair fewer than max_qp, 10 when unknown) are a Mac's: a Linux XDomain's usb4_rdma is judged by its own max_qp only. */
    @Test
    void aLinuxThunderboltDeviceIsJudgedByItsOwnMaxQpAlone() {
        Optional<Thunderbolt> xdomain = Optional.of(new Thunderbolt(Optional.of("AAAA"), Optional.of("BBBB"), 1, Optional.of(40.0), false,
                Optional.empty(), Optional.of("0-1")));
        List<String> two = List.of("hub", "a");
        List<List<List<String>>> ten = cells("-|rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2",
                "rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2+rdma_en2|-");
        assertThat(budget(Checker.check(hub(Optional.empty(), xdomain), two, ten, Mode.RING, MlxVersion.NEWEST)))
                .noneMatch(f -> f.ranks().equals(List.of(0)));
        assertThat(budget(Checker.check(hub(RdmaLimits.of(12, null, null, null), xdomain), two, ten, Mode.RING, MlxVersion.NEWEST)))
                .noneMatch(f -> f.ranks().equals(List.of(0)));
        assertThat(budget(Checker.check(hub(RdmaLimits.of(11, null, null, null), xdomain), two, ten, Mode.RING, MlxVersion.NEWEST)))
                .filteredOn(f -> f.ranks().equals(List.of(0))).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("at most 11", "max_qp 11").doesNotContain("EBUSY"));
    }

    /**
     * The oracle: what jaccl 0.32.1's code creates on one rank, step by step. lib/jaccl/jaccl.cpp
     * Config::get_mesh_connectivity (devices_[rank][dst][0], the own cell "") and get_ring_connectivity (the
     * left and right cells); rdma.cpp create_connections (one connection per name, none for ""); mesh.cpp
     * MeshGroup::initialize (a PD, CQ and queue pair per connection with a device) and allocate_buffers
     * (BUFFER_SIZES × NUM_BUFFERS: the own send buffer on every connection's PD, peer j's receive buffer and its
     * two scatter slots on connection j's); ring.cpp RingGroup::initialize (left, then right) and allocate_buffers
     * (j < 2·n_conns: wire j % n_conns, direction j / n_conns, a send and a receive buffer).
     *
     * @return device → {queue pairs, memory regions}
     */
    private static Map<String, int[]> jaccl(List<List<List<String>>> cells, int rank, JacclMode mode) {
        int size = cells.size();
        int bufferSizes = 8;
        int numBuffers = 2;
        Map<String, int[]> out = new TreeMap<>();
        if (mode == JacclMode.MESH) {
            List<String> connections = new ArrayList<>();
            for (int dst = 0; dst < size; dst++) {
                connections.add(dst == rank ? "" : cells.get(rank).get(dst).get(0));
            }
            for (String conn : connections) {
                if (!conn.isEmpty()) {
                    out.computeIfAbsent(conn, x -> new int[2])[0]++;
                }
            }
            for (int k = 0; k < bufferSizes; k++) {
                for (int i = 0; i < numBuffers; i++) {
                    for (int j = 0; j < size; j++) {
                        if (j == rank) {
                            for (String conn : connections) {
                                if (!conn.isEmpty()) {
                                    out.get(conn)[1]++;
                                }
                            }
                        } else {
                            out.get(connections.get(j))[1]++;
                        }
                    }
                    for (int j = 0; j < size; j++) {
                        if (j != rank) {
                            out.get(connections.get(j))[1] += 2;
                        }
                    }
                }
            }
        } else {
            List<String> left = cells.get(rank).get((rank + size - 1) % size);
            List<String> right = cells.get(rank).get((rank + 1) % size);
            for (String conn : left) {
                out.computeIfAbsent(conn, x -> new int[2])[0]++;
            }
            for (String conn : right) {
                out.computeIfAbsent(conn, x -> new int[2])[0]++;
            }
            int nConns = left.size();
            for (int k = 0; k < bufferSizes; k++) {
                for (int i = 0; i < numBuffers; i++) {
                    for (int j = 0; j < nConns * 2; j++) {
                        int wire = j % nConns;
                        boolean lr = j / nConns == 1;
                        out.get(lr ? left.get(wire) : right.get(wire))[1]++; // send buffer
                        out.get(lr ? right.get(wire) : left.get(wire))[1]++; // receive buffer
                    }
                }
            }
        }
        return out;
    }

    @RepeatedTest(200)
    void theQueuePairsAndMemoryRegionsCountedAreWhatJacclCreates(RepetitionInfo info) {
        long seed = 0x30A_2026L + info.getCurrentRepetition();
        Random random = new Random(seed);
        int n = 2 + random.nextInt(7);
        JacclMode mode = random.nextBoolean() ? JacclMode.MESH : JacclMode.RING;
        int wires = 1 + random.nextInt(JacclRules.RING_MAX_CONNS);
        List<List<List<String>>> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                boolean neighbour = j == JacclRules.left(i, n) || j == JacclRules.right(i, n);
                int count = i == j ? 0 : mode == JacclMode.MESH ? 1 + random.nextInt(3) : neighbour ? wires : random.nextInt(2);
                List<String> cell = new ArrayList<>();
                for (int k = 0; k < count; k++) {
                    cell.add("rdma_en" + (2 + random.nextInt(4))); // few names: devices shared by several peers and wires
                }
                row.add(cell);
            }
            cells.add(row);
        }
        assertThat(mode == JacclMode.MESH ? JacclRules.isValidMesh(cells, MlxVersion.NEWEST) : JacclRules.isValidRing(cells, MlxVersion.NEWEST))
                .as("seed %d", seed).isTrue();
        for (int r = 0; r < n; r++) {
            Map<String, int[]> expected = jaccl(cells, r, mode);
            Map<String, Integer> counted = JacclRules.connections(cells, r, mode);
            assertThat(counted.keySet()).as("seed %d rank %d", seed, r).isEqualTo(expected.keySet());
            for (Map.Entry<String, Integer> e : counted.entrySet()) {
                assertThat(e.getValue()).as("queue pairs, seed %d rank %d %s", seed, r, e.getKey()).isEqualTo(expected.get(e.getKey())[0]);
                assertThat(e.getValue() * JacclRules.memoryRegionsPerConnection(mode))
                        .as("memory regions, seed %d rank %d %s", seed, r, e.getKey()).isEqualTo(expected.get(e.getKey())[1]);
            }
        }
    }
}
