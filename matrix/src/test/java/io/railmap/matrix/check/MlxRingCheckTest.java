package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.address.Wired;
import io.railmap.matrix.emit.RingHostsFile;
import io.railmap.matrix.emit.RingLaunchHostfile;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * {@code railmap check} on an mlx.launch hostfile for MLX's TCP ring backend (ml-explore/mlx
 * {@code python/mlx/_distributed_utils/launch.py} {@code launch_ring}, {@code mlx/distributed/ring/ring.cpp}
 * {@code RingGroup}): rank r's ips are its ends of cables to rank r-1, each connection on its own cable.
 */
class MlxRingCheckTest {
    /** a–b–c, two cables per ring edge, cable i a /30 of its own: x.1 at the first node, x.2 at the second. */
    private static Wired triangle(int prefix) {
        Wired w = new Wired("a", "b", "c");
        String[] ring = {"a", "b", "c"};
        int cable = 0;
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 2; k++, cable++) {
                String x = ring[i];
                String y = ring[(i + 1) % 3];
                w.cable(x + ":e" + (2 * i + k), "169.254.1." + (4 * cable + 1) + "/" + prefix, y + ":f" + (2 * i + k),
                        "169.254.1." + (4 * cable + 2) + "/" + prefix);
            }
        }
        return w;
    }

    private static CheckReport check(Snapshot snapshot, String ips) {
        String text = "{\"backend\": \"ring\", \"envs\": [], \"hosts\": [" + ips + "]}";
        return FileCheck.check(snapshot, "ring.json", text, new CheckOptions(Optional.empty(), Optional.empty(), "--hosts", "--mode",
                MlxVersion.NEWEST));
    }

    private static String host(String node, String... ips) {
        return "{\"ssh\": \"" + node + "\", \"ips\": [" + String.join(", ", List.of(ips).stream().map(i -> "\"" + i + "\"").toList()) + "]}";
    }

    // rank r listens on its ends of the cables to r-1: a's ends towards c are the f4/f5 ends' far side, e4/e5 live on c
    private static final String GOOD = String.join(", ", host("a", "169.254.1.18", "169.254.1.22"),
            host("b", "169.254.1.2", "169.254.1.6"), host("c", "169.254.1.10", "169.254.1.14"));

    @Test
    void aRingWhoseEveryAddressIsPinnedToACableToThePreviousRankChecksClean() {
        CheckReport report = check(triangle(30).snapshot(), GOOD);

        assertThat(report.mode()).isEqualTo(Mode.MLX_RING);
        assertThat(report.ranks()).containsExactly("a", "b", "c");
        assertThat(report.findings()).isEmpty();
        assertThat(report.hostfile().orElseThrow().mode().reason()).isEqualTo("backend ring: MLX's TCP ring backend over the hosts' ips");
    }

    @Test
    void oneSlash16ForEveryPortIsASharedSubnetOnEveryWire() {
        CheckReport report = check(triangle(16).snapshot(), GOOD);

        assertThat(report.findings()).extracting(Finding::code).containsOnly(Code.SHARED_SUBNET);
        assertThat(report.findings()).hasSize(6).allMatch(Finding::isError);
        Finding first = report.findings().get(0);
        assertThat(first.ranks()).containsExactly(0, 1);
        assertThat(first.rail()).contains(0);
        assertThat(first.message()).startsWith("$.hosts[1].ips[0] \"169.254.1.2\": a connection from a to 169.254.1.2 (b:f0, on cable"
                + " a:e0\u2013b:f0) may leave a by any of a:e0, a:e1, a:f4, a:f5, which all hold 169.254.0.0/16");
    }

    @Test
    void anAddressOnACableToAnotherNodeIsNotACableOfThatEdge() {
        // b lists its end of a b–c cable (169.254.1.9): a connects to it over no cable of its own
        String wrong = String.join(", ", host("a", "169.254.1.18", "169.254.1.22"), host("b", "169.254.1.2", "169.254.1.9"),
                host("c", "169.254.1.10", "169.254.1.14"));
        CheckReport report = check(triangle(30).snapshot(), wrong);

        Finding f = report.findings().stream().filter(x -> x.code() == Code.NOT_A_CABLE).findFirst().orElseThrow();
        assertThat(f.isError()).isTrue();
        assertThat(f.ports()).containsExactly(PortRef.parse("b:e2"), PortRef.parse("c:f2"));
        assertThat(f.message()).isEqualTo("$.hosts[1].ips[1] \"169.254.1.9\" is b:e2's, which is cabled to c:f2, not to a: rank 0 (a)"
                + " connects to it over no cable of its own, so the connection fails (after the ring backend's five attempts, about 31 s)"
                + " or travels another route; list b's addresses on its cables to a");
        assertThat(report.findings()).extracting(Finding::code).contains(Code.CABLE_LEFT_OUT);
    }

    @Test
    void everyOtherFaultIsNamedWithItsAddress() {
        Wired w = triangle(30).down("c:e4");
        String text = String.join(", ", host("a", "169.254.1.18", "10.9.9.9"), host("b", "169.254.1.2", "169.254.1.2"),
                host("c", "169.254.1.10", "c.local"));
        CheckReport report = check(w.snapshot(), text);

        assertThat(report.findings()).extracting(f -> f.code().wireName() + " " + f.message().substring(0, f.message().indexOf(':')))
                .contains("unknown-address $.hosts[0].ips[1] \"10.9.9.9\" is no address of a's ports",
                        "link-down $.hosts[0].ips[0] \"169.254.1.18\" is on cable a",
                        "same-cable-twice $.hosts[1].ips[1] \"169.254.1.2\" is on cable a",
                        "unknown-address $.hosts[2].ips[1] \"c.local\" is not an IPv4 address");
        CheckReport uneven = check(triangle(30).snapshot(), String.join(", ", host("a", "169.254.1.18"), host("b", "169.254.1.2", "169.254.1.6"),
                host("c", "169.254.1.10", "169.254.1.14")));
        assertThat(uneven.findings().get(0).code()).isEqualTo(Code.UNEQUAL_RING_WIRES);
        assertThat(uneven.findings().get(0).message()).contains("(a 1, b 2, c 2)");
    }

    @Test
    void theRingModeIsForHostfilesOnly() {
        assertThatThrownBy(() -> FileCheck.check(triangle(30).snapshot(), "d.json", "[[null, \"x\"], [\"y\", null]]",
                new CheckOptions(Optional.of(List.of("a", "b")), Optional.of(Mode.MLX_RING), "--hosts", "--mode", MlxVersion.NEWEST)))
                .hasMessage("--mode mlx-ring checks the ips of an mlx.launch hostfile for MLX's ring backend, and d.json is a jaccl devices"
                        + " file: give auto, mesh or ring");
    }

    @Test
    void theRingBackendsOwnFileIsCheckedWithTheNodesGiven() {
        // ring.cpp load_nodes: one entry per rank of "ip:port"; the ports are launch_ring's (32323 up)
        Topology t = triangle(30).topology();
        String file = RingHostsFile.render(MlxRing.of(t, List.of("a", "b", "c")));
        CheckOptions hosts = new CheckOptions(Optional.of(List.of("a", "b", "c")), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST);

        CheckReport clean = FileCheck.check(triangle(30).snapshot(), "hosts.json", file, hosts);
        assertThat(clean.mode()).isEqualTo(Mode.MLX_RING);
        assertThat(clean.findings()).isEmpty();
        assertThat(clean.hostfile()).isEmpty();

        CheckReport shared = FileCheck.check(triangle(16).snapshot(), "hosts.json", file, hosts);
        assertThat(shared.findings()).extracting(Finding::code).containsOnly(Code.SHARED_SUBNET);
        assertThat(shared.findings().get(0).message()).startsWith("$[1][0] \"169.254.1.2\": a connection from a to 169.254.1.2");

        assertThatThrownBy(() -> FileCheck.check(triangle(30).snapshot(), "hosts.json", file,
                new CheckOptions(Optional.empty(), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST)))
                .hasMessageStartingWith("--hosts is required with the ring backend's file (MLX_HOSTFILE)");
        assertThatThrownBy(() -> FileCheck.check(triangle(30).snapshot(), "hosts.json", "[[\"169.254.1.2:32323\"], [\"169.254.1.6\"]]",
                new CheckOptions(Optional.of(List.of("a", "b")), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST)))
                .hasMessage("hosts.json: at $[1][0]: expected \"HOST:PORT\" with a port from 1 to 65535, as the ring backend reads each"
                        + " address (\"Can't parse address\" otherwise)");
        assertThatThrownBy(() -> FileCheck.check(triangle(30).snapshot(), "hosts.json", file,
                new CheckOptions(Optional.of(List.of("a", "b")), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST)))
                .hasMessage("--hosts names 2 nodes but hosts.json has 3 ranks: name the node of each entry, in file order");
        // a jaccl devices file starts with its diagonal cell, never a "HOST:PORT" string
        assertThat(FileCheck.check(triangle(30).snapshot(), "d.json", "[[null, \"rdma_e0\"], [\"rdma_f0\", null]]",
                new CheckOptions(Optional.of(List.of("a", "b")), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST)).mode())
                .isEqualTo(Mode.AUTO);
    }

    /**
     * What {@code railmap matrix --format ring-launch} writes checks clean when every cable has a subnet of its own,
     * and every wire is a {@code shared-subnet} error in both when the ports of a node share one: the writer and the
     * checker judge by one rule.
     */
    @RepeatedTest(20)
    void theRingLaunchFileAndItsCheckAgree(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        int n = 2 + random.nextInt(5);
        boolean shared = random.nextBoolean();
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("n" + i);
        }
        Wired w = new Wired(nodes.toArray(String[]::new));
        int cable = 0;
        for (int i = 0; i < (n == 2 ? 1 : n); i++) {
            for (int k = 1 + random.nextInt(3); k > 0; k--, cable++) {
                String len = shared ? "/16" : "/30";
                w.cable("n" + i + ":p" + cable, "169.254." + (1 + cable / 64) + "." + (4 * (cable % 64) + 1) + len, "n" + ((i + 1) % n) + ":q" + cable,
                        "169.254." + (1 + cable / 64) + "." + (4 * (cable % 64) + 2) + len);
            }
        }
        Topology t = w.topology();
        MlxRing ring = MlxRing.of(t, nodes);
        CheckReport report = FileCheck.check(w.snapshot(), "ring.json", RingLaunchHostfile.render(ring, MlxVersion.NEWEST),
                new CheckOptions(Optional.empty(), Optional.empty(), "--hosts", "--mode", MlxVersion.NEWEST));
        List<Finding> ringErrors = ring.findings().stream().filter(Finding::isError).toList();
        List<Finding> checkErrors = report.findings().stream().filter(Finding::isError).toList();
        if (shared && (n > 2 || cable > 1)) {
            assertThat(ringErrors).isNotEmpty().extracting(Finding::code).containsOnly(Code.SHARED_SUBNET);
            assertThat(checkErrors).extracting(Finding::code).containsOnly(Code.SHARED_SUBNET);
            assertThat(checkErrors).hasSameSizeAs(ringErrors);
        } else if (!shared) {
            assertThat(ringErrors).isEmpty();
            assertThat(checkErrors).isEmpty();
        }
    }
}
