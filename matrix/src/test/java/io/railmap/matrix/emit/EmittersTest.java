package io.railmap.matrix.emit;

import io.railmap.matrix.jaccl.MlxVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;

class EmittersTest {
    private final Topology crossed = Topology.of(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6")
            .oneSided("a:en9", "b:en9").snapshot());
    private final Plan ring = Planner.plan(crossed, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
    private final Plan mesh = Planner.plan(crossed, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS.withMaxWires(1), MlxVersion.NEWEST);

    @Test
    void envTurnsTheRingOnOnlyWhenThereIsAValidRing() {
        String ringEnv = JacclEnv.render(ring, "/etc/railmap/devices.json", "10.0.0.1:32323", Optional.of(1));
        assertThat(ringEnv).startsWith("RAILMAP_TOPOLOGY=" + ring.provenance().digest() + "\nRAILMAP_RECORDS=a@1.");
        assertThat(ringEnv.substring(ringEnv.indexOf("MLX_"))).isEqualTo("MLX_IBV_DEVICES=/etc/railmap/devices.json\nMLX_RANK=1\n"
                + "MLX_JACCL_COORDINATOR=10.0.0.1:32323\nMLX_JACCL_RING=1\n"
                + "JACCL_IBV_DEVICES=/etc/railmap/devices.json\nJACCL_RANK=1\nJACCL_COORDINATOR=10.0.0.1:32323\nJACCL_RING=1\n");
        String meshEnv = JacclEnv.render(mesh, "/tmp/my devices.json", "10.0.0.1:32323", Optional.empty());
        assertThat(meshEnv).doesNotContainPattern("(?m)^(MLX_)?JACCL_RING=").contains("unset both", "# rank 0 (a)\n", "# rank 1 (b)\n", "MLX_RANK=0\n",
                "MLX_IBV_DEVICES='/tmp/my devices.json'\n");
    }

    @Test
    void envRefusesBadValues() {
        assertThatThrownBy(() -> JacclEnv.render(ring, "/d.json", "node-a:32323", Optional.empty()))
                .hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> JacclEnv.render(ring, "/d.json", "10.0.0.1", Optional.empty())).hasMessageContaining("IPV4:PORT");
        assertThatThrownBy(() -> JacclEnv.render(ring, "/d.json", "10.0.0.1:70000", Optional.empty())).hasMessageContaining("IPV4:PORT");
        assertThatThrownBy(() -> JacclEnv.render(ring, "/d.json", "10.0.0.1:1", Optional.of(2))).hasMessageContaining("rank 2 (--rank, or rank= in a query) is not among");
    }

    @Test
    void launchHostfileCarriesRowsBackendAndTheCoordinatorAddress() throws Exception {
        JsonNode json = new ObjectMapper().readTree(LaunchHostfile.render(ring, Map.of("a", "10.0.0.1")));
        assertThat(json.get("backend").asText()).isEqualTo("jaccl-ring");
        assertThat(json.get("envs").toString()).isEqualTo("[\"RAILMAP_TOPOLOGY=" + ring.provenance().digest()
                + "\",\"RAILMAP_RECORDS=" + ring.provenance().recordList() + "\"]");
        assertThat(json.get("hosts").get(0).get("ips").get(0).asText()).isEqualTo("10.0.0.1");
        assertThat(json.get("hosts").get(1).get("ips")).isEmpty();
        assertThat(json.get("hosts").get(1).get("rdma").toString()).isEqualTo("[[\"rdma_en7\",\"rdma_en6\"],null]");
        assertThat(new ObjectMapper().readTree(LaunchHostfile.render(mesh, Map.of("a", "10.0.0.1"))).get("backend").asText())
                .isEqualTo("jaccl");
        assertThatThrownBy(() -> LaunchHostfile.render(ring, Map.of("b", "10.0.0.2"))).hasMessageContaining("--ip a=ADDRESS");
    }

    @Test
    void launchHostfileTakesTheFormTheReleasesMlxLaunchReads() throws Exception {
        // v0.32.0 python/mlx/_distributed_utils/common.py Hostfile.from_file: data["backend"] and data["envs"] are required
        Plan v0320 = Planner.plan(crossed, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS, new MlxVersion(0, 32, 0));
        JsonNode object = new ObjectMapper().readTree(LaunchHostfile.render(v0320, Map.of("a", "10.0.0.1")));
        assertThat(object.has("backend") && object.has("envs") && object.has("hosts")).isTrue();
        // v0.30.5 common.py parse_hostfile: enumerate(json.load(f)), h["ssh"]: a bare array of hosts only; the
        // backend comes from launch.py's --backend (default ring), so a warning says to pass --backend jaccl
        MlxVersion v0305 = new MlxVersion(0, 30, 5);
        Format.Request request = new Format.Request(crossed, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS, v0305,
                new Format.Options(Format.Options.DEFAULT_DEVICES_PATH, Optional.empty(), Optional.empty(), Map.of("a", "10.0.0.1")));
        Format.Output old = new LaunchHostfile().write(request);
        JsonNode bare = new ObjectMapper().readTree(old.text());
        assertThat(bare.isArray()).isTrue();
        assertThat(bare.get(0).get("ssh").asText()).isEqualTo("a");
        assertThat(bare.get(0).get("ips").get(0).asText()).isEqualTo("10.0.0.1");
        assertThat(bare.get(1).get("rdma").toString()).isEqualTo("[\"rdma_en7\",null]");
        assertThat(old.findings()).filteredOn(f -> f.code() == Code.SETTING_CAVEAT).singleElement()
                .satisfies(f -> assertThat(f.message()).contains("--backend jaccl", "MLX 0.30.5"));
        assertThat(old.hasErrors()).isFalse();
        assertThat(new LaunchHostfile().write(new Format.Request(crossed, List.of("a", "b"), Order.GIVEN, RailOptions.DEFAULTS,
                MlxVersion.RING, request.options())).findings()).noneMatch(f -> f.code() == Code.SETTING_CAVEAT);
    }

    @Test
    void planJsonHoldsMatrixFlagsRailsAndFindings() throws Exception {
        JsonNode json = new ObjectMapper().readTree(PlanJson.render(ring));
        assertThat(json.get("mode").asText()).isEqualTo("ring");
        assertThat(json.get("mlxVersion").asText()).isEqualTo(MlxVersion.NEWEST.toString());
        // two wires per ring edge: v0.32.0 lib/jaccl/ring_impl.h RingImpl::recv is the first without the prefill deadlock
        assertThat(json.get("minMlxVersion").asText()).isEqualTo("0.32.0");
        JsonNode meshJson = new ObjectMapper().readTree(PlanJson.render(mesh));
        assertThat(meshJson.get("mode").asText()).isEqualTo("mesh");
        // one name per cell: v0.30.1 jaccl.cpp load_device_names reads it
        assertThat(meshJson.get("minMlxVersion").asText()).isEqualTo("0.30.1");
        assertThat(json.get("ring").asBoolean()).isTrue();
        assertThat(json.get("runRing").asBoolean()).isTrue();
        assertThat(json.get("devices").toString()).isEqualTo("[[[],[\"rdma_en6\",\"rdma_en7\"]],[[\"rdma_en7\",\"rdma_en6\"],[]]]");
        assertThat(json.get("rails").get(1).toString()).isEqualTo("{\"ranks\":[0,1],\"rail\":1,\"cable\":[\"a:en7\",\"b:en6\"]}");
        assertThat(json.get("findings").toString()).contains("\"code\":\"unconfirmed-cable\"", "a:en9");
        // every finding's ports, as node:port, read back are the finding's own; present (empty) when it names none
        assertThat(ring.findings()).isNotEmpty();
        for (int i = 0; i < ring.findings().size(); i++) {
            JsonNode ports = json.get("findings").get(i).get("ports");
            assertThat(ports.isArray()).isTrue();
            List<PortRef> read = new ArrayList<>();
            ports.forEach(p -> read.add(PortRef.parse(p.asText())));
            assertThat(read).isEqualTo(ring.findings().get(i).ports());
        }
        assertThat(ring.findings()).anySatisfy(f -> assertThat(f.ports()).isNotEmpty());
        JsonNode none = new ObjectMapper().readTree(JsonText.write(FindingJson.of(List.of(new Finding(Code.ONE_RANK, Severity.ERROR, List.of(0),
                Optional.empty(), "one rank")))));
        assertThat(none.get(0).get("ports").toString()).isEqualTo("[]");
        assertThat(json.get("topology").get("digest").asText()).isEqualTo(ring.provenance().digest());
        assertThat(json.get("topology").get("records").toString()).matches("\\[\"a@1\\.[0-9a-f]{8}\",\"b@1\\.[0-9a-f]{8}\"\\]");
    }

    @Test
    void dotLabelsBothPortsColoursRailsAndDashesUnconfirmedCables() {
        String dot = Dot.render(crossed, ring);
        assertThat(dot).contains("comment=\"topology " + ring.provenance().digest() + " from records a@1.");
        assertThat(dot).startsWith("graph railmap {").contains("n0 [ label=\"a\\nrank 0\" shape=\"ellipse\" ];");
        assertThat(dot).contains("taillabel=\"en6\"", "headlabel=\"en7\"", "label=\"rail 0\"", "color=\"" + io.railmap.matrix.draw.RailColours.of(1) + "\"");
        assertThat(dot).containsPattern("taillabel=\"en9\" headlabel=\"en9\" label=\"unconfirmed\" style=\"dashed\"");
    }
}
