package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.FormatOption;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.emit.RingHostsFile;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** MLX's TCP ring backend, each rule as ml-explore/mlx reads it (see {@link MlxRing} and {@link MlxRingLibrary}). */
class MlxRingTest {
    private static final MlxRingLibrary LIBRARY = new MlxRingLibrary();

    /** a-b-c-d-a, two cables per edge, cable k of the ring with 192.168.k.1 at its first node and .2 at its second. */
    private static RingCables square() {
        RingCables t = new RingCables("a", "b", "c", "d");
        String[] ring = {"a", "b", "c", "d"};
        int k = 0;
        for (int i = 0; i < 4; i++) {
            for (int w = 0; w < 2; w++, k++) {
                t.cable(ring[i], "192.168.%d.1".formatted(k), ring[(i + 1) % 4], "192.168.%d.2".formatted(k));
            }
        }
        return t;
    }

    @Test
    void rankRListensOnItsOwnEndsOfTheCablesToRankRMinusOneWithLaunchRingsPorts() {
        // ring.cpp RingGroup: rank r accepts on nodes[r] and connects to nodes[r+1]; config.py configure_ring: ips[node, ring[i-1]];
        // launch.py launch_ring: port = 32323, +1 per address, host after host
        MlxRing ring = MlxRing.of(square().topology());

        assertThat(ring.ranks()).containsExactly("a", "b", "c", "d");
        assertThat(ring.addresses()).containsExactly(
                List.of("192.168.6.2:32323", "192.168.7.2:32324"),
                List.of("192.168.0.2:32325", "192.168.1.2:32326"),
                List.of("192.168.2.2:32327", "192.168.3.2:32328"),
                List.of("192.168.4.2:32329", "192.168.5.2:32330"));
        assertThat(ring.findings()).isEmpty();
    }

    @Test
    void ringLaunchTakesTheHostfileFormTheReleasesMlxLaunchReads() throws Exception {
        Topology t = square().topology();
        Format format = Formats.named("ring-launch");
        assertThat(format.reads()).containsExactly(FormatOption.MLX_VERSION);
        assertThat(Formats.named("ring-hosts").reads()).isEmpty();
        // launch.py launch_ring (v0.30.1 to v0.32.1 alike) reads each host's ssh and ips only; ring.cpp load_nodes is unchanged too
        String hosts = "[{\"ssh\":\"a\",\"ips\":[\"192.168.6.2\",\"192.168.7.2\"]},{\"ssh\":\"b\",\"ips\":[\"192.168.0.2\",\"192.168.1.2\"]},"
                + "{\"ssh\":\"c\",\"ips\":[\"192.168.2.2\",\"192.168.3.2\"]},{\"ssh\":\"d\",\"ips\":[\"192.168.4.2\",\"192.168.5.2\"]}]";
        // v0.30.6 and v0.32.0 common.py Hostfile.from_file: data["backend"] and data["envs"] (a KeyError without them);
        // v0.32.1: data.get; config.py configure_ring writes Hostfile(ring_hosts, "ring", args.env) from v0.30.6
        for (MlxVersion v : List.of(MlxVersion.NEWEST, new MlxVersion(0, 32, 0), MlxVersion.RING)) {
            Format.Output out = format.write(request(t, v));
            JsonNode object = new ObjectMapper().readTree(out.text());
            assertThat(object.get("backend").asText()).as(v.toString()).isEqualTo("ring");
            assertThat(object.get("envs").get(0).asText()).as(v.toString()).startsWith("RAILMAP_TOPOLOGY=sha256:");
            assertThat(object.get("hosts").toString()).as(v.toString()).isEqualTo(hosts);
            assertThat(out.findings()).as(v.toString()).isEmpty();
        }
        // v0.30.5 common.py parse_hostfile: enumerate(json.load(f)) then h["ssh"], h.get("ips"): a bare array of hosts only
        // (v0.30.5 config.py configure_ring writes one); launch.py main: --backend defaults to "nccl" if
        // mx.cuda.is_available() else "ring", so the file runs the ring except on a launcher with CUDA
        for (MlxVersion v : List.of(new MlxVersion(0, 30, 5), MlxVersion.FIRST_JACCL)) {
            Format.Output out = format.write(request(t, v));
            JsonNode bare = new ObjectMapper().readTree(out.text());
            assertThat(bare.isArray()).as(v.toString()).isTrue();
            assertThat(bare.toString()).as(v.toString()).isEqualTo(hosts);
            assertThat(out.hasErrors()).isFalse();
            assertThat(out.findings()).as(v.toString()).singleElement().satisfies(f -> {
                assertThat(f.code()).isEqualTo(Code.SETTING_CAVEAT);
                assertThat(f.severity()).isEqualTo(Severity.WARNING);
                assertThat(f.message()).contains("MLX " + v, "bare array", "nccl where CUDA is available", "--backend ring");
            });
        }
    }

    private static Format.Request request(Topology t, MlxVersion version) {
        return new Format.Request(t, List.of("a", "b", "c", "d"), Order.GIVEN, RailOptions.DEFAULTS, version,
                new Format.Options(Format.Options.DEFAULT_DEVICES_PATH, Optional.empty(), Optional.empty(), Map.of()));
    }

    @Test
    void theHostfileIsTheJsonArrayLoadNodesParsesOneArrayOfIpPortPerRank() throws Exception {
        // ring.cpp load_nodes: json::parse, one entry per rank, each a list of "ip:port" (utils.cpp parse_address: split at the first ':')
        JsonNode root = new ObjectMapper().readTree(RingHostsFile.render(MlxRing.of(square().topology())));

        assertThat(root.isArray()).isTrue();
        assertThat(root).hasSize(4);
        assertThat(root.get(1).get(0).asText()).isEqualTo("192.168.0.2:32325");
        for (JsonNode rank : root) {
            assertThat(rank).hasSize(2);
        }
    }

    @Test
    void everyRankGetsAsManyAddressesAsTheThinnestRingEdgeHasCables() {
        // RingGroup throws unless a rank has as many sockets to the left as to the right; configure_ring: cnt = min over the ring's edges
        RingCables t = new RingCables("a", "b", "c")
                .cable("a", "10.1.0.1", "b", "10.1.0.2").cable("a", "10.1.1.1", "b", "10.1.1.2").cable("a", "10.1.2.1", "b", "10.1.2.2")
                .cable("b", "10.2.0.1", "c", "10.2.0.2")
                .cable("c", "10.3.0.1", "a", "10.3.0.2").cable("c", "10.3.1.1", "a", "10.3.1.2");
        MlxRing ring = MlxRing.of(t.topology());

        assertThat(ring.addresses()).allSatisfy(a -> assertThat(a).hasSize(1));
        assertThat(ring.findings()).extracting(Finding::code, Finding::severity).containsOnly(
                org.assertj.core.groups.Tuple.tuple(Code.CABLE_LEFT_OUT, Severity.INFO));
        assertThat(ring.findings()).hasSize(3); // two a-b cables and one c-a cable beyond the one every edge gets
    }

    @Test
    void aCableEndWithoutIpv4OrNotActiveCarriesNoConnectionAndIsNamed() {
        // parse_address keeps the text before the first ':' as the host and the socket is AF_INET: an IPv6 address cannot be used
        RingCables t = new RingCables("a", "b")
                .cable("a", "10.0.0.1", "b", "fe80::1")
                .cable("a", "10.0.1.1", "b", "10.0.1.2", PortState.DOWN)
                .cable("a", "10.0.2.1", "b", "10.0.2.2");
        MlxRing ring = MlxRing.of(t.topology());

        assertThat(ring.addresses()).containsExactly(List.of("10.0.2.1:32323"), List.of("10.0.2.2:32324"));
        assertThat(ring.findings()).hasSize(2).allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING));
        assertThat(ring.findings()).extracting(Finding::message).anySatisfy(m -> assertThat(m).contains("b:en2 has no IPv4 address"))
                .anySatisfy(m -> assertThat(m).contains("is not active"));
    }

    @Test
    void withoutARingThroughEveryNodeEachNodeGetsAnErrorAndNoVariable() {
        RingCables path = new RingCables("a", "b", "c").cable("a", "10.0.0.1", "b", "10.0.0.2").cable("b", "10.0.1.1", "c", "10.0.1.2");
        RingCables noAddresses = new RingCables("a", "b").cable("a", null, "b", null);
        for (RingCables t : List.of(path, noAddresses, new RingCables("a"))) {
            NodeSettings s = t.settings(LIBRARY, "a");
            assertThat(s.settings()).isEmpty();
            assertThat(s.findings()).singleElement().satisfies(f -> {
                assertThat(f.isError()).isTrue();
                assertThat(f.code()).isIn(Code.RING_NOT_A_CYCLE, Code.ONE_RANK);
            });
        }
    }

    @Test
    void theVariablesAreTheRingRankAndTheHostfilePathAndNeverRingVerbose() {
        // ring.cpp init reads MLX_HOSTFILE, MLX_RANK (atoi) and MLX_RING_VERBOSE, which turns logging on whenever it exists.
        // Sorted, a-b-c-d is no cycle here; the ring is a-c-b-d, so b is rank 2, not 1.
        RingCables t = new RingCables("a", "b", "c", "d")
                .cable("a", "10.0.0.1", "c", "10.0.0.2").cable("c", "10.0.1.1", "b", "10.0.1.2")
                .cable("b", "10.0.2.1", "d", "10.0.2.2").cable("d", "10.0.3.1", "a", "10.0.3.2");
        NodeSettings s = t.settings(LIBRARY, "b");

        assertThat(s.settings()).extracting(Setting::key).containsExactly("RAILMAP_TOPOLOGY", "RAILMAP_RECORDS", "MLX_HOSTFILE", "MLX_RANK");
        assertThat(s.settings()).contains(new Setting("MLX_RANK", "2"), new Setting("MLX_HOSTFILE", MlxRingLibrary.HOSTFILE_PATH));
        assertThat(s.findings()).isEmpty();
    }

    /** Random rings with extra cables, some without addresses: the hostfile always describes a ring the backend can build. */
    @RepeatedTest(200)
    void theHostfileAlwaysJoinsEachRankToThePreviousByACableWithEqualCountsAndDistinctPorts(RepetitionInfo info) {
        Random random = new Random(info.getCurrentRepetition());
        int n = 3 + random.nextInt(6);
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("m" + i);
        }
        List<String> shuffled = new ArrayList<>(nodes);
        Collections.shuffle(shuffled, random);
        RingCables t = new RingCables(nodes.toArray(String[]::new));
        int[] k = {0};
        java.util.function.Supplier<String> ip = () -> "10." + (k[0] / 250) + "." + (k[0] % 250) + "." + (++k[0] % 2 + 1);
        for (int i = 0; i < n; i++) {
            int wires = 1 + random.nextInt(3);
            for (int w = 0; w < wires; w++) {
                t.cable(shuffled.get(i), ip.get(), shuffled.get((i + 1) % n), ip.get());
            }
        }
        for (int extra = random.nextInt(2 * n); extra > 0; extra--) {
            int a = random.nextInt(n);
            int b = (a + 1 + random.nextInt(n - 1)) % n;
            t.cable(nodes.get(a), random.nextBoolean() ? ip.get() : null, nodes.get(b), ip.get());
        }
        Topology topology = t.topology();
        MlxRing ring = MlxRing.of(topology);

        assertThat(ring.ranks()).as("seed %d", info.getCurrentRepetition()).containsExactlyInAnyOrderElementsOf(nodes);
        int width = ring.addresses().get(0).size();
        assertThat(width).isPositive();
        Set<Integer> ports = new HashSet<>();
        for (int r = 0; r < n; r++) {
            List<String> entry = ring.addresses().get(r);
            assertThat(entry).hasSize(width);
            String node = ring.ranks().get(r);
            String left = ring.ranks().get((r + n - 1) % n);
            for (String address : entry) {
                String host = address.substring(0, address.indexOf(':'));
                assertThat(IpAddresses.isIpv4(host)).isTrue();
                ports.add(Integer.parseInt(address.substring(address.indexOf(':') + 1)));
                Port port = topology.ports(node).stream().filter(p -> p.addresses().contains(host)).findFirst().orElseThrow();
                assertThat(topology.cableAt(port.ref()).orElseThrow().farEnd(port.ref()).node()).isEqualTo(left);
            }
        }
        assertThat(ports).hasSize(n * width);
    }
}
