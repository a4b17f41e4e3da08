package io.railmap.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabTopologyTest {
    @TempDir
    Path dir;

    @Test
    void everyShippedExampleIsAValidTopology() throws Exception {
        try (var files = Files.list(Path.of("../examples"))) {
            List<Path> examples = files.filter(p -> p.toString().endsWith(".json")).toList();
            assertThat(examples).hasSizeGreaterThanOrEqualTo(4);
            for (Path p : examples) {
                LabTopology t = LabTopology.read(p.toString(), Files.readString(p));
                assertThat(t.cables()).as(p.toString()).isNotEmpty();
            }
        }
    }

    @Test
    void portsOfANodeComeFromItsCableEnds() {
        LabTopology t = LabTopology.read("t", "{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\"], [\"b:en6\", \"a:en7\"]]}");
        assertThat(t.ports("a")).containsExactly("en6", "en7");
        assertThat(t.cableAt(PortRef.parse("b:en6")).orElseThrow().farEnd(PortRef.parse("b:en6"))).isEqualTo(PortRef.parse("a:en7"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown field|{\"nodes\": [\"a\"], \"cables\": [], \"links\": []}|$.links|unknown field",
        "cable to an unlisted node|{\"nodes\": [\"a\"], \"cables\": [[\"a:en6\", \"z:en7\"]]}|$|not in \"nodes\"",
        "three ends|{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\", \"b:en8\"]]}|$.cables[0]|a pair of ends",
        "no colon|{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a-en6\", \"b:en7\"]]}|$.cables[0]|write node:port",
        "long interface name|{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en0123456789abcdef\", \"b:en7\"]]}|$|at most 15 characters",
        "reserved name|{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:mgmt0\", \"b:en7\"]]}|$|reserved",
        "port used twice|{\"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\"], [\"a:en6\", \"b:en8\"]]}|$|ends two cables",
        "self cable|{\"nodes\": [\"a\"], \"cables\": [[\"a:en6\", \"a:en7\"]]}|$.cables[0]|both on a",
        "node twice|{\"nodes\": [\"a\", \"a\"], \"cables\": []}|$|listed twice",
        "slash in a node|{\"nodes\": [\"a/b\"], \"cables\": []}|$|must not contain '/'",
        "no nodes|{\"nodes\": [], \"cables\": []}|$|at least one node",
        "a node and a switch|{\"nodes\": [\"g1\", \"leaf0\"], \"switches\": [\"leaf0\"], \"cables\": []}|$|leaf0 is both a node and a switch",
        "switch twice|{\"nodes\": [\"g1\"], \"switches\": [\"leaf0\", \"leaf0\"], \"cables\": []}|$|switch leaf0 is listed twice",
        "bad switch name|{\"nodes\": [\"g1\"], \"switches\": [\"leaf/0\"], \"cables\": []}|$|must not contain '/'",
        "switches not a list|{\"nodes\": [\"g1\"], \"switches\": \"leaf0\", \"cables\": []}|$.switches|expected an array",
        "switch port used twice|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf0:p1\"], [\"g2:eth2\", \"leaf0:p1\"]]}|$|port leaf0:p1 ends two cables",
        "switch to switch|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"leaf0:p1\", \"leaf1:p1\"]]}|$|joins two switches",
        "switch port not pN|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf0:eth1\"]]}|$|must be named pN",
        "switch name lldpcli would cut|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf#0\"], \"cables\": [[\"g1:eth2\", \"leaf#0:p1\"]]}|$|cannot be announced by lldpd",
        "switch port p0|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf0:p0\"]]}|$|must be named pN",
        "switch port leading zero|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf0:p01\"]]}|$|must be named pN",
        "switch port too high|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf0:p4097\"]]}|$|above p4096",
        "unlisted switch|{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"leaf1\"], \"cables\": [[\"g1:eth2\", \"leaf9:p1\"]]}|$|not in \"nodes\" or \"switches\"",
    })
    void badTopologiesNameThePathAndTheProblem(String what, String json, String path, String problem) {
        assertThatThrownBy(() -> LabTopology.read("lab.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.problem()).contains(problem);
                });
    }

    @Test
    void switchesTakeCablesFromNodesAndPlainCablesStay() {
        LabTopology t = LabTopology.read("t", "{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\", \"lone\"], \"cables\": "
                + "[[\"g1:eth2\", \"leaf0:p1\"], [\"leaf0:p2\", \"g2:eth2\"], [\"g1:en6\", \"g2:en7\"]]}");
        assertThat(t.switches()).containsExactly("leaf0", "lone");
        assertThat(t.ports("leaf0")).containsExactly("p1", "p2");
        assertThat(t.ports("lone")).isEmpty();
        assertThat(t.ports("g1")).containsExactly("en6", "eth2");
        assertThat(t.plainCables()).containsExactly(new Cable(PortRef.parse("g1:en6"), PortRef.parse("g2:en7")));
        LabTopology moved = t.moveCable(PortRef.parse("g2:eth2"), PortRef.parse("lone:p7"));
        assertThat(moved.cables().get(1)).isEqualTo(new Cable(PortRef.parse("g2:eth2"), PortRef.parse("lone:p7")));
        assertThat(moved.ports("leaf0")).containsExactly("p1");
        assertThatThrownBy(() -> t.moveCable(PortRef.parse("g1:en6"), PortRef.parse("lone:p1")))
                .hasMessageContaining("g1:en6 is not a node's end of a cable to a switch");
        assertThatThrownBy(() -> t.moveCable(PortRef.parse("leaf0:p1"), PortRef.parse("lone:p1")))
                .hasMessageContaining("leaf0:p1 is not a node's end of a cable to a switch");
        assertThatThrownBy(() -> t.moveCable(PortRef.parse("g1:eth2"), PortRef.parse("leaf0:p2")))
                .hasMessageContaining("port leaf0:p2 ends two cables");
        assertThatThrownBy(() -> t.moveCable(PortRef.parse("g1:eth2"), PortRef.parse("lone:eth0")))
                .hasMessageContaining("must be named pN");
    }

    @Test
    void theStateSurvivesARoundTrip() {
        LabTopology t = LabTopology.read("t", "{\"description\": \"x\", \"nodes\": [\"a\", \"b\"], \"cables\": [[\"a:en6\", \"b:en7\"]]}");
        LabState state = new LabState("rmt", t, List.of("/opt/railmap/bin/railmapd"), Map.of("a", 42L),
                LabState.Ssh.on().withPid("a", 44L).withPid("b", 45L));
        state.write(dir);
        assertThat(LabState.read(dir)).contains(state);
        LabState sshOff = state.withSsh(LabState.Ssh.off("sshd is not installed here"));
        sshOff.write(dir);
        assertThat(LabState.read(dir)).contains(sshOff);
        LabTopology switched = LabTopology.read("t", "{\"nodes\": [\"g1\"], \"switches\": [\"leaf0\"], \"cables\": [[\"g1:eth2\", \"leaf0:p1\"]]}");
        LabState withLldpd = new LabState("rmt", switched, List.of("railmapd"), Map.of("g1", 42L), LabState.Ssh.off("not asked for"))
                .withLldpd("g1", new LabState.Lldpd(dir.resolve("lldpd-g1.sock"), java.util.Optional.of(43L)))
                .withLldpd("leaf0", new LabState.Lldpd(dir.resolve("lldpd-leaf0.sock"), java.util.Optional.empty()));
        withLldpd.write(dir);
        assertThat(LabState.read(dir)).contains(withLldpd);
        assertThat(LabState.read(dir.resolve("nothing"))).isEmpty();
    }

    /** A state file written before labs ran sshd has no "ssh": it reads as a lab whose ssh is off, saying so. */
    @Test
    void aStateWithoutSshReadsAsALabWithoutSsh() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("state.json"), "{\"prefix\": \"rmt\", \"topology\": {\"nodes\": [\"a\", \"b\"], "
                + "\"cables\": [[\"a:en6\", \"b:en7\"]]}, \"daemon\": [\"railmapd\"], \"pids\": {\"a\": 42}}");
        LabState state = LabState.read(dir).orElseThrow();
        assertThat(state.pids()).isEqualTo(Map.of("a", 42L));
        assertThat(state.ssh().isOn()).isFalse();
        assertThat(state.ssh().off()).contains(LabState.SSH_UNRECORDED);
        assertThat(state.ssh().pids()).isEmpty();
    }

    @Test
    void namesCarryThePrefix() {
        LabNames names = new LabNames("rmt7");
        assertThat(names.nodeNamespace("a")).isEqualTo("rmt7-n-a");
        assertThat(names.owns("rmt7-n-a")).isTrue();
        assertThat(names.owns("rmt7-mgmt")).isTrue();
        assertThat(names.owns("rmt70-n-a")).isFalse();
        assertThat(names.owns("other")).isFalse();
        assertThatThrownBy(() -> new LabNames("bad prefix")).hasMessageContaining("letters, digits");
        assertThat(LabNames.mgmtAddress(0)).isEqualTo("10.231.0.1");
    }

    @Test
    void everyCableGetsASubnetOfItsOwnAndEverySwitchOneForItsPorts() {
        LabTopology crossed = LabTopology.read("two-crossed", """
                {"nodes": ["a", "b"], "cables": [["a:en6", "b:en7"], ["a:en7", "b:en6"]]}""");
        var plan = crossed.addresses();
        assertThat(plan.links()).extracting(l -> l.subnet().toString()).containsExactly("169.254.1.0/30", "169.254.1.4/30");
        assertThat(plan.links().get(0).address(new PortRef("a", "en6"))).isEqualTo("169.254.1.1");
        assertThat(plan.links().get(0).address(new PortRef("b", "en7"))).isEqualTo("169.254.1.2");
        assertThat(plan.links().get(1).address(new PortRef("a", "en7"))).isEqualTo("169.254.1.5");

        LabTopology leaves = LabTopology.read("mixed", """
                {"nodes": ["g1", "g2"], "switches": ["leaf0", "leaf1"], "cables": [
                  ["g1:eth2", "leaf0:p1"], ["g2:eth2", "leaf0:p2"], ["g1:eth3", "leaf1:p1"], ["g2:eth3", "leaf1:p2"],
                  ["g1:eth4", "g2:eth4"]]}""");
        plan = leaves.addresses();
        assertThat(plan.links()).extracting(l -> l.subnet().toString())
                .containsExactly("169.254.1.0/24", "169.254.2.0/24", "169.254.3.0/30");
        assertThat(plan.links().get(0).link().ends()).containsExactly(new PortRef("g1", "eth2"), new PortRef("g2", "eth2"));
        assertThat(plan.links().get(1).address(new PortRef("g2", "eth3"))).isEqualTo("169.254.2.2");
    }

    @Test
    void aTopologyWhosePortsTheLinkLocalBlockCannotNumberIsRefused() {
        // 254 usable /24s of 64 cables each: one more cable than fits
        int cables = 254 * 64 + 1;
        List<Cable> list = new java.util.ArrayList<>();
        for (int i = 0; i < cables; i++) {
            list.add(new Cable(new PortRef("a", "p" + i), new PortRef("b", "p" + i)));
        }
        assertThatThrownBy(() -> new LabTopology("big", List.of("a", "b"), list))
                .hasMessageContaining("the lab cannot give its ports addresses").hasMessageContaining("give a larger pool");
        assertThat(new LabTopology("full", List.of("a", "b"), list.subList(0, cables - 1)).addresses().links()).hasSize(cables - 1);
    }
}
