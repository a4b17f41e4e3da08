package io.railmap.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.matrix.model.PortRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Switches in namespaces, as root: {@code two-leaves.json} makes switch namespaces with bridges and
 * lldpd, and every node's lldpd names its leaf and {@code pN} on each cable port, read with
 * {@code lldpcli -f json0} from inside the node's namespace. The expected neighbours come from the
 * topology file. The nodes' daemons are a stand-in ({@code sleep}): what railmapd makes of the
 * switches is {@code LabEndToEndTest}'s. Skipped, with the reason, where namespaces cannot be made or
 * lldpd is not installed.
 */
class LabSwitchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** LLDP every second, so a neighbour appears within seconds and is forgotten 4 s after it goes silent. */
    private static final Duration LLDP = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private Lab lab;

    @BeforeEach
    void placeTheLab() throws Exception {
        Optional<String> why = Netns.unavailable().or(() -> Lldpd.unavailable(Lldpd.searchPath()));
        why.ifPresent(w -> System.err.println("lab switch suite skipped: " + w));
        Assumptions.assumeTrue(why.isEmpty(), () -> "lab switch suite skipped: " + why.orElseThrow());
        // lldpcli runs as user _lldpd (setuid): it must be able to enter the directories above the lab's sockets
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        lab = new Lab(new LabNames("rmsw" + ProcessHandle.current().pid()), dir.resolve("lab"), c -> List.of("3600"));
    }

    @AfterEach
    void labDown() {
        if (lab != null) {
            lab.down();
        }
    }

    private static LabTopology example(String name) throws Exception {
        Path file = Path.of("../examples", name);
        return LabTopology.read(file.toString(), Files.readString(file));
    }

    /** interface → "chassis name/port id" of each neighbour lldpd lists on it, read inside {@code ns}. */
    private static Map<String, List<String>> neighbours(String ns, Path socket) throws Exception {
        String out = Ip.output("ip", "netns", "exec", ns, "lldpcli", "-u", socket.toString(), "-f", "json0", "show", "neighbors");
        Map<String, List<String>> seen = new TreeMap<>();
        for (JsonNode lldp : JSON.readTree(out).path("lldp")) {
            for (JsonNode i : lldp.path("interface")) {
                String far = i.path("chassis").path(0).path("name").path(0).path("value").asText()
                        + "/" + i.path("port").path(0).path("id").path(0).path("value").asText();
                seen.computeIfAbsent(i.path("name").asText(), k -> new ArrayList<>()).add(far);
            }
        }
        return seen;
    }

    /** interface → its one expected neighbour, from the topology: a node port's switch port, or a switch port's node port. */
    private static Map<String, List<String>> expected(LabTopology topology, String name) {
        Map<String, List<String>> out = new TreeMap<>();
        topology.cables().forEach(c -> {
            for (PortRef end : List.of(c.a(), c.b())) {
                if (end.node().equals(name)) {
                    PortRef far = c.farEnd(end);
                    out.put(end.netdev(), List.of(far.node() + "/" + far.netdev()));
                }
            }
        });
        return out;
    }

    private void awaitNeighboursAsCabled(LabState state, String... names) {
        await("every lldpd names the far end of each of its cables, and only it").atMost(LLDP).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    LabTopology topology = lab.state().orElseThrow().topology();
                    for (String name : names) {
                        assertThat(neighbours(lab.namespace(topology, name), state.lldpd().get(name).socket()))
                                .as("lldpcli show neighbors of %s", name).isEqualTo(expected(topology, name));
                    }
                });
    }

    @Test
    void twoLeavesAreBridgesWhoseLldpdEachNodeHearsAndNoNodeHearsAnother() throws Exception {
        LabTopology topology = example("two-leaves.json");
        LabState state = lab.up(topology, List.of("sleep"));

        for (String sw : List.of("leaf0", "leaf1")) {
            assertThat(Netns.list()).contains(lab.names().switchNamespace(sw));
            assertThat(Netns.bridgePorts(lab.names().switchNamespace(sw), LabNames.BRIDGE)).containsExactly("p1", "p2", "p3", "p4");
        }
        assertThat(state.lldpd()).containsOnlyKeys("g1", "g2", "g3", "g4", "leaf0", "leaf1");
        assertThat(LabState.read(lab.dir())).contains(state);
        for (String name : state.lldpd().keySet()) {
            assertThat(lab.lldpdRunning(state, name)).as(name).isTrue();
            assertThat(state.lldpd().get(name).socket()).exists();
        }
        // each node port hears its leaf on pN and nothing else: the bridge does not forward the other nodes' LLDP
        awaitNeighboursAsCabled(state, "g1", "g2", "g3", "g4", "leaf0", "leaf1");
        assertThat(neighbours(lab.names().nodeNamespace("g3"), state.lldpd().get("g3").socket()))
                .isEqualTo(Map.of("eth2", List.of("leaf0/p3"), "eth3", List.of("leaf1/p3")));

        List<Long> pids = new ArrayList<>();
        state.lldpd().values().forEach(l -> pids.add(l.pid().orElseThrow()));
        List<String> removed = lab.down();
        assertThat(removed).contains(lab.names().switchNamespace("leaf0"), lab.names().switchNamespace("leaf1"),
                lab.names().nodeNamespace("g1"));
        assertThat(Netns.list()).noneMatch(lab.names()::owns);
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("lldpd pid %d", pid).isNotEqualTo(Optional.of(true));
        }
        assertThat(lab.dir()).doesNotExist();
        state.lldpd().values().forEach(l -> assertThat(l.socket()).doesNotExist());
    }

    @Test
    void aCableToASwitchGoesDownMovesToTheOtherLeafAndANodesLldpdStops() throws Exception {
        LabState state = lab.up(example("two-leaves.json"), List.of("sleep"));
        String leaf0 = lab.names().switchNamespace("leaf0");

        lab.cable(PortRef.parse("g2:eth2"), false);
        assertThat(Netns.hasCarrier(leaf0, "p2")).isFalse();
        lab.cable(PortRef.parse("g2:eth2"), true);
        assertThat(Netns.hasCarrier(leaf0, "p2")).isTrue();
        lab.cable(PortRef.parse("leaf0:p2"), false);
        assertThat(Netns.hasCarrier(lab.names().nodeNamespace("g2"), "eth2")).isFalse();
        lab.cable(PortRef.parse("leaf0:p2"), true);

        // swap g3's NICs between the leaves, through a free port, and the lab is two-leaves-swapped.json
        lab.move(PortRef.parse("g3:eth2"), PortRef.parse("leaf1:p5"));
        lab.move(PortRef.parse("g3:eth3"), PortRef.parse("leaf0:p3"));
        lab.move(PortRef.parse("g3:eth2"), PortRef.parse("leaf1:p3"));
        assertThat(new HashSet<>(lab.state().orElseThrow().topology().cables()))
                .isEqualTo(new HashSet<>(example("two-leaves-swapped.json").cables()));
        assertThat(Netns.bridgePorts(lab.names().switchNamespace("leaf1"), LabNames.BRIDGE)).containsExactly("p1", "p2", "p3", "p4");
        await("each switch's lldpd works on p1 to p4: the arrived ports, none gone").atMost(LLDP).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    for (String sw : List.of("leaf0", "leaf1")) {
                        assertThat(Lldpd.interfaces(state.lldpd().get(sw).socket())).as("ports of %s's lldpd", sw)
                                .containsExactlyInAnyOrder("p1", "p2", "p3", "p4");
                    }
                });
        awaitNeighboursAsCabled(state, "g3", "leaf0", "leaf1");
        assertThat(neighbours(lab.names().nodeNamespace("g3"), state.lldpd().get("g3").socket()))
                .isEqualTo(Map.of("eth2", List.of("leaf1/p3"), "eth3", List.of("leaf0/p3")));
        assertThatThrownBy(() -> lab.move(PortRef.parse("g1:eth2"), PortRef.parse("leaf1:p3")))
                .isInstanceOf(LabException.class).hasMessageContaining("leaf1:p3 ends two cables");
        assertThatThrownBy(() -> lab.move(PortRef.parse("g1:eth2"), PortRef.parse("g2:eth9")))
                .isInstanceOf(LabException.class).hasMessageContaining("g2 is not a switch");

        assertThat(lab.lldpd("g1", false)).isTrue();
        LabState stopped = lab.state().orElseThrow();
        assertThat(stopped.lldpd().get("g1").pid()).isEmpty();
        assertThat(stopped.lldpd().get("g1").socket()).doesNotExist();
        assertThat(Netns.pids(lab.names().nodeNamespace("g1"))).containsExactly(stopped.pids().get("g1"));
        assertThat(lab.lldpd("g1", false)).as("stopping a stopped lldpd changes nothing").isFalse();
        await("leaf0 forgets g1 once its LLDP is silent for 4 tx intervals").atMost(LLDP).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(neighbours(leaf0, state.lldpd().get("leaf0").socket())).doesNotContainKey("p1"));

        assertThat(lab.lldpd("g1", true)).isTrue();
        assertThat(lab.lldpdRunning(lab.state().orElseThrow(), "g1")).isTrue();
        awaitNeighboursAsCabled(state, "g1", "leaf0");
        assertThatThrownBy(() -> lab.lldpd("spine", false)).isInstanceOf(LabException.class)
                .hasMessageContaining("spine is not a node or switch of the lab");
    }

    @Test
    void aLabWithoutSwitchesRunsNoLldpd() throws Exception {
        LabState state = lab.up(example("two-crossed.json"), List.of("sleep"));
        assertThat(state.lldpd()).isEmpty();
        for (String node : state.topology().nodes()) {
            assertThat(Netns.pids(lab.names().nodeNamespace(node))).containsExactly(state.pids().get(node));
        }
        assertThat(Netns.list()).noneMatch(ns -> ns.startsWith(lab.names().prefix() + "-s-"));
        assertThatThrownBy(() -> lab.lldpd("a", false)).isInstanceOf(LabException.class).hasMessageContaining("runs no lldpd");
    }

    @Test
    void aLabDirectoryLldpcliCannotReachIsRefusedBeforeAnythingIsMade() throws Exception {
        Path closed = Files.createDirectory(dir.resolve("closed"), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Lab hidden = new Lab(lab.names(), closed.resolve("lab"), c -> List.of("3600"));
        assertThatThrownBy(() -> hidden.up(example("two-leaves.json"), List.of("sleep"))).isInstanceOf(LabException.class)
                .hasMessageContaining(closed + " is not searchable by others (mode rwx------)")
                .hasMessageContaining("RAILMAP_LAB_DIR");
        assertThat(Netns.list()).noneMatch(lab.names()::owns);
        assertThat(closed.resolve("lab")).doesNotExist();
    }

    @Test
    void withoutLldpdTheMessageNamesTheDebianPackage() {
        assertThat(Lldpd.unavailable(dir.toString())).hasValueSatisfying(m -> assertThat(m)
                .contains("lldpd is not installed here", "apt-get install lldpd"));
    }
}
