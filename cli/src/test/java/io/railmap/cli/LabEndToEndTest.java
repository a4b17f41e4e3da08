package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.client.EventFollower;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.LabNames;
import io.railmap.lab.LabTopology;
import io.railmap.lab.Netns;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The main job end to end: {@code railmap lab up} on every example topology (namespaces, veth cables,
 * a management bridge, one real railmapd per node), then the CLI against every daemon. The expected
 * cables come from the topology file, not from railmap. Runs where namespaces can be made (root on
 * Linux, as in CI) and this checkout's daemon is built; says why it is skipped elsewhere.
 */
@ExtendWith(LabEndToEndTest.LabAvailable.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabEndToEndTest {
    /**
     * The example whose lab is up and as {@code lab up} made it, for the next test to use instead of making it again
     * (a lab takes 5 to 15 s to make on two cores); empty when no lab is up or a test changed or may have changed it.
     * Only a test that reads the lab, and passed, leaves it ({@link #asMade}); the order of the tests puts those of
     * one example next to each other.
     */
    private static Optional<String> upAsMade = Optional.empty();
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    /** Skips the class, with the reason, where a lab cannot run. */
    static final class LabAvailable implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<String> why = Netns.unavailable();
            if (why.isEmpty() && !Files.exists(ROOT.resolve("daemon/target/railmap-daemon.jar"))) {
                why = Optional.of("the daemon is not built (daemon/target/railmap-daemon.jar): run ./mvnw verify from the top");
            }
            why.ifPresent(w -> System.err.println("lab end-to-end suite skipped: " + w));
            return why.map(w -> ConditionEvaluationResult.disabled("lab end-to-end suite skipped: " + w))
                    .orElse(ConditionEvaluationResult.enabled("a lab can run here"));
        }
    }

    @BeforeAll
    static void placeTheLab() throws Exception {
        // a lab with switches runs lldpd, whose lldpcli is setuid _lldpd: it must be able to enter the directories above its sockets
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        System.setProperty("railmap.home", ROOT.toString());
        System.setProperty("railmap.lab.dir", dir.resolve("lab").toString());
        // a prefix given to the run (-Drailmap.lab.prefix=...) keeps two runs on one machine apart
        System.setProperty("railmap.lab.prefix", System.getProperty("railmap.lab.prefix", "rme2e"));
        Run.of("lab", "down");
    }

    @AfterEach
    void labDownUnlessAsMade() {
        if (upAsMade.isEmpty()) {
            labDown();
        }
    }

    @AfterAll
    static void labDown() {
        upAsMade = Optional.empty();
        Run down = Run.of("lab", "down");
        assertThat(down.code()).as(down.err()).isZero();
    }

    /** Called by a test that passed and only read the lab of {@code example}: the next test of that example may use it. */
    private static void asMade(String example) {
        upAsMade = Optional.of(example);
    }

    /**
     * The lab of {@code example}, as {@code lab up} makes it: the one the previous test left as made ({@link #asMade}),
     * or a new one (the previous lab taken down first).
     */
    private static LabTopology up(String example) throws Exception {
        Path file = ROOT.resolve("examples").resolve(example);
        if (upAsMade.equals(Optional.of(example))) {
            upAsMade = Optional.empty();
            return LabTopology.read(file.toString(), Files.readString(file));
        }
        if (upAsMade.isPresent()) {
            labDown();
        }
        Run up = Run.of("lab", "up", "--topology", file.toString(), "--wait-s", "90");
        assertThat(up.code()).as("lab up %s: %s%s", example, up.out(), up.err()).isZero();
        LabTopology topology = LabTopology.read(file.toString(), Files.readString(file));
        // issue 13: lab up says what it waits for, a line each time the counts change (not a terminal here), the last one all done
        int n = topology.nodes().size();
        List<String> progress = up.err().lines().filter(l -> l.matches("railmap: lab up: [0-9.]+ s: .*")).toList();
        assertThat(progress).as(up.err()).isNotEmpty().doesNotHaveDuplicates();
        assertThat(progress.get(progress.size() - 1)).endsWith(": " + n + "/" + n + " daemons answer, " + n + "/" + n + " hold every record, "
                + topology.plainCables().size() + "/" + topology.plainCables().size() + " cables seen by every daemon, " + n + "/" + n
                + " say the cluster agrees");
        return topology;
    }

    /** The plan one lab node's daemon answers with. */
    private static JsonNode plan(String node, List<String> hosts, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("matrix", "--lab", node, "--hosts", String.join(",", hosts), "--format", "json"));
        args.addAll(List.of(options));
        Run run = Run.of(args.toArray(String[]::new));
        assertThat(run.code()).as("matrix from %s: %s", node, run.err()).isZero();
        return JSON.readTree(run.out());
    }

    /** The netdev of a lab port's device name: lab ports are veths named rdma_<netdev> by --assume-rdma. */
    private static String netdev(JsonNode device) {
        assertThat(device.asText()).startsWith("rdma_");
        return device.asText().substring("rdma_".length());
    }

    /** Every rail joins the two ends of one cable of the file; a pair has rails exactly when the file cables it. */
    private static void assertRailAligned(JsonNode plan, LabTopology topology) {
        Set<Set<PortRef>> cables = new HashSet<>();
        for (Cable c : topology.cables()) {
            cables.add(Set.of(c.a(), c.b()));
        }
        List<String> ranks = new ArrayList<>();
        plan.get("ranks").forEach(r -> ranks.add(r.asText()));
        JsonNode devices = plan.get("devices");
        for (int i = 0; i < ranks.size(); i++) {
            for (int j = 0; j < ranks.size(); j++) {
                if (i == j) {
                    continue;
                }
                JsonNode mine = devices.get(i).get(j);
                JsonNode theirs = devices.get(j).get(i);
                assertThat(mine.size()).as("wires %d→%d", i, j).isEqualTo(theirs.size());
                Set<String> pair = Set.of(ranks.get(i), ranks.get(j));
                long between = topology.cables().stream().filter(c -> Set.of(c.a().node(), c.b().node()).equals(pair)).count();
                assertThat(mine.size()).as("rails between %s and %s", ranks.get(i), ranks.get(j))
                        .isBetween(between > 0 ? 1 : 0, (int) between);
                for (int k = 0; k < mine.size(); k++) {
                    Set<PortRef> ends = Set.of(new PortRef(ranks.get(i), netdev(mine.get(k))),
                            new PortRef(ranks.get(j), netdev(theirs.get(k))));
                    assertThat(cables).as("rail %d between %s and %s", k, ranks.get(i), ranks.get(j)).contains(ends);
                }
            }
        }
    }

    @ParameterizedTest
    @Order(2)
    @ValueSource(strings = {"two-crossed.json", "three-mesh-doubled.json", "six-ring.json", "four-ring-double.json"})
    void everyDaemonWritesARailAlignedMatrixThatCheckAcceptsAndASwappedCellFails(String example) throws Exception {
        LabTopology topology = up(example);
        List<String> nodes = topology.nodes();
        for (String node : nodes) {
            for (String order : List.of("given", "ring")) {
                JsonNode plan = plan(node, nodes, "--order", order, "--no-equal-ring-wires");
                assertRailAligned(plan, topology);
                assertRailAligned(plan(node, nodes, "--order", order), topology);
            }
        }

        String node = nodes.get(nodes.size() - 1);
        Path devices = dir.resolve(example + ".devices.json");
        Run matrix = Run.of("matrix", "--lab", node, "--hosts", String.join(",", nodes), "--no-equal-ring-wires", "-o", devices.toString());
        assertThat(matrix.code()).as(matrix.err()).isZero();
        Run check = Run.of("check", devices.toString(), "--lab", node, "--hosts", String.join(",", nodes));
        assertThat(check.code()).as(check.out()).isZero();

        JsonNode cells = JSON.readTree(Files.readString(devices));
        for (int i = 0; i < cells.size(); i++) {
            for (int j = 0; j < cells.size(); j++) {
                if (cells.get(i).get(j).isArray() && cells.get(i).get(j).size() >= 2) {
                    var swapped = (com.fasterxml.jackson.databind.node.ArrayNode) cells.get(i).get(j);
                    JsonNode first = swapped.get(0);
                    swapped.set(0, swapped.get(1));
                    swapped.set(1, first);
                    Path bad = Files.writeString(dir.resolve(example + ".swapped.json"), JSON.writeValueAsString(cells));
                    Run badCheck = Run.of("check", bad.toString(), "--lab", node, "--hosts", String.join(",", nodes));
                    assertThat(badCheck.code()).isEqualTo(ExitCodes.FINDINGS);
                    assertThat(badCheck.out()).contains("error mismatched-rail");
                    asMade(example);
                    return;
                }
            }
        }
        assertThat(example).as("only a topology without doubled cables has no cell to swap").isEqualTo("six-ring.json");
        asMade(example);
    }

    /**
     * A lab node's record, as {@code railmap ports --lab a --json} shows it: every cable port has the
     * RDMA device rdma_&lt;netdev&gt; (--assume-rdma) and a link-local IPv4 address of its own, and the
     * node its management address 10.231.0.&lt;i+1&gt;.
     */
    @Test
    @Order(1)
    void aLabNodesRecordCarriesRdmaNamesLinkLocalAddressesAndItsManagementAddress() throws Exception {
        LabTopology topology = up("two-crossed.json");
        Set<String> ipv4 = new HashSet<>();
        for (int i = 0; i < topology.nodes().size(); i++) {
            String node = topology.nodes().get(i);
            Run ports = Run.of("ports", "--lab", node, "--json");
            assertThat(ports.code()).as(ports.err()).isZero();
            NodeRecord record = SnapshotCodec.readRecord("ports --lab " + node, ports.out());
            assertThat(record.management()).contains("10.231.0." + (i + 1));
            assertThat(record.ports()).extracting(Port::netdev).containsExactlyInAnyOrderElementsOf(topology.ports(node));
            for (Port port : record.ports()) {
                assertThat(port.rdma()).as(port.ref().toString()).contains("rdma_" + port.netdev());
                assertThat(port.addressesKnown()).isTrue();
                assertThat(port.ipv4()).as(port.ref().toString()).singleElement().asString().startsWith("169.254.");
                ipv4.add(port.ipv4().get(0));
            }
            Run table = Run.of("ports", "--lab", node);
            assertThat(table.out()).contains("management address 10.231.0." + (i + 1), "rdma_en6", "169.254.");
        }
        assertThat(ipv4).as("one address per cable end").hasSize(2 * topology.cables().size());

        Run jaccl = Run.of("matrix", "--lab", "a", "--hosts", "a,b");
        assertThat(jaccl.code()).as(jaccl.err()).isZero();
        assertThat(jaccl.out()).contains("rdma_en6", "rdma_en7").doesNotContain("\"en6\"");

        // issue 9: a launch needs no hand-typed address: ips and the coordinator come from the records
        Run launch = Run.of("matrix", "--lab", "b", "--hosts", "a,b", "--format", "launch");
        assertThat(launch.code()).as(launch.err()).isZero();
        JsonNode hostfile = new ObjectMapper().readTree(launch.out());
        assertThat(hostfile.get("backend").asText()).isEqualTo("jaccl-ring");
        assertThat(hostfile.get("hosts").get(0).get("ips").toString()).isEqualTo("[\"10.231.0.1\"]");
        assertThat(hostfile.get("hosts").get(1).get("ips").toString()).isEqualTo("[\"10.231.0.2\"]");
        Run env = Run.of("matrix", "--lab", "b", "--hosts", "a,b", "--format", "env", "--rank", "1");
        assertThat(env.out()).contains("MLX_JACCL_COORDINATOR=10.231.0.1:32323\n", "JACCL_COORDINATOR=10.231.0.1:32323\n");
        asMade("two-crossed.json");
    }

    /** The confirmed cables of a topology file as the picture names them: {@code a:en2 b:en4}. */
    private static Set<String> drawn(LabTopology topology) {
        Set<String> out = new java.util.TreeSet<>();
        topology.cables().forEach(c -> out.add(c.a() + " " + c.b()));
        return out;
    }

    /** Lab node {@code node}'s topology page in Debian's chromium, through a relay to its daemon's socket. */
    private static TopologyPage page(String node) throws Exception {
        return TopologyPage.open(Path.of(LabSetup.daemonUrl(node).substring("unix:".length())), dir.resolve("chromium-" + System.nanoTime()));
    }

    /**
     * Issue 13: a daemon's page in a real browser shows every node and every cable of the file, both
     * port names of each, live from the event stream; a screenshot is kept as a build artifact
     * (cli/target/topology-page.png, a PNG). Skipped without a browser, unless RAILMAP_BROWSER_TESTS=required.
     */
    private static void thePageShowsEveryNodeAndCable(LabTopology topology) throws Exception {
        Optional<String> why = Browser.skipped();
        if (why.isPresent()) {
            System.err.println("topology page in a browser skipped: " + why.get());
            return;
        }
        try (TopologyPage page = page("c")) {
            await("the page shows every node and cable of the file").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> {
                        assertThat(page.nodes()).containsExactlyElementsOf(topology.nodes());
                        assertThat(page.cables()).isEqualTo(drawn(topology));
                        assertThat(page.agreement()).startsWith("agreed: all 4 members hold the same 4 records");
                    });
            Set<String> ends = new java.util.TreeSet<>();
            topology.cables().forEach(c -> ends.addAll(List.of(c.a().toString(), c.b().toString())));
            assertThat(page.portLabels()).isEqualTo(ends);
            await("the page is live (GET /v1/events)").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(page.live()).startsWith("live: "));
            // issue 29: the hosts field starts with every node in the ring order railmap matrix --order ring finds, its matrix shown
            List<String> ring = new ArrayList<>();
            plan("c", topology.nodes(), "--order", "ring").get("ranks").forEach(r -> ring.add(r.asText()));
            assertThat(ring).containsExactlyInAnyOrderElementsOf(topology.nodes());
            await("the page fills the hosts in ring order and shows their matrix untyped").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                        assertThat(page.hosts()).isEqualTo(String.join(",", ring));
                        assertThat(page.matrixRows()).hasSize(5).element(1).asString().startsWith("0 " + ring.get(0) + " | ");
                    });
            page.matrix("a,b,c,d");
            await("the page shows the matrix of the hosts typed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(page.matrixRows()).hasSize(5)
                            .contains("0 a | – | rdma_en2, rdma_en3 | – | rdma_en4, rdma_en5"));
            keepScreenshot(page, "topology-page.png");
        }
    }

    /** Saves what the page shows as target/{@code name}, a build artifact, and checks that it is a PNG. */
    private static void keepScreenshot(TopologyPage page, String name) throws Exception {
        Path screenshot = Path.of("target", name);
        Files.deleteIfExists(screenshot);
        page.screenshot(screenshot);
        assertThat(screenshot).isRegularFile();
        byte[] png = Files.readAllBytes(screenshot);
        // a PNG starts with its 8-byte signature (PNG specification, 5.2) and holds more than that
        assertThat(png.length).as("the screenshot's size").isGreaterThan(8);
        assertThat(java.util.Arrays.copyOf(png, 8)).as("the PNG signature")
                .isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    }

    /**
     * Issue 29: a daemon's page draws a switched fabric as a rail diagram, the leaves in a row above the nodes and each
     * NIC joined to its leaf, and no two of the boxes overlap as the browser lays them out; a screenshot is kept
     * (cli/target/topology-page-rails.png). Skipped without a browser, unless RAILMAP_BROWSER_TESTS=required.
     */
    private static void thePageDrawsTheRailDiagram(LabTopology topology) throws Exception {
        Optional<String> why = Browser.skipped();
        if (why.isPresent()) {
            System.err.println("rail diagram in a browser skipped: " + why.get());
            return;
        }
        Set<String> nics = new java.util.TreeSet<>();
        topology.cables().forEach(c -> nics.add(topology.isSwitch(c.a().node()) ? c.b() + " " + c.a().node() : c.a() + " " + c.b().node()));
        try (TopologyPage page = page("g1")) {
            await("the page draws the leaves above the nodes, each NIC joined to its leaf").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                        assertThat(page.nodes()).containsExactlyElementsOf(topology.nodes());
                        assertThat(page.switches()).containsExactly("leaf0", "leaf1");
                        assertThat(page.nics()).isEqualTo(nics);
                        assertThat(page.summary()).startsWith("4 nodes, 8 cables, 2 switches, 2 rails, ");
                        // no cable joins two nodes: the matrix below is jaccl's, so no hosts are filled in, and the note says why
                        assertThat(page.hosts()).isEmpty();
                        assertThat(page.matrixNote()).startsWith("no cable joins two nodes directly: this matrix is jaccl's");
                    });
            List<TopologyPage.Box> boxes = page.boxes();
            assertThat(boxes).extracting(TopologyPage.Box::what).containsExactlyInAnyOrder("g1", "g2", "g3", "g4", "leaf0", "leaf1");
            for (int i = 0; i < boxes.size(); i++) {
                assertThat(boxes.get(i).right()).as("%s is drawn", boxes.get(i)).isGreaterThan(boxes.get(i).left());
                for (int j = i + 1; j < boxes.size(); j++) {
                    assertThat(boxes.get(i).overlaps(boxes.get(j))).as("%s and %s overlap", boxes.get(i), boxes.get(j)).isFalse();
                }
            }
            keepScreenshot(page, "topology-page-rails.png");
        }
    }

    @Test
    @Order(3)
    void aPulledCableLeavesEveryMatrixAndReturnsWhenPlugged() throws Exception {
        LabTopology topology = up("four-ring-double.json");
        List<String> nodes = topology.nodes();
        thePageShowsEveryNodeAndCable(topology);
        assertThat(plan("c", nodes).get("ring").asBoolean()).isTrue();
        // issue 10: lab up waited until the cluster agrees; every config names the records it came from
        Run agreed = Run.of("agree", "--lab", "c", "--hosts", String.join(",", nodes));
        assertThat(agreed.code()).as(agreed.out() + agreed.err()).isZero();
        assertThat(agreed.out()).startsWith("agreed: all 4 members hold the same 4 records (sha256:")
                .contains("records of the hosts: " + plan("a", nodes).get("topology").get("digest").asText());
        Path hostfile = dir.resolve("four-ring-launch.json");
        assertThat(Run.of("matrix", "--lab", "d", "--hosts", String.join(",", nodes), "--format", "launch", "-o", hostfile.toString())
                .code()).isZero();

        // issue 13: every daemon's event stream, open before the pull (the first notice says it is)
        Map<String, EventFollower> streams = new LinkedHashMap<>();
        for (String node : nodes) {
            EventFollower follower = new EventFollower(LabSetup.daemonUrl(node), Optional.empty());
            streams.put(node, follower);
            assertThat(follower.next(10_000)).get().isInstanceOf(EventFollower.Notice.class)
                    .asString().contains("following railmapd at");
        }
        Map<String, String> seen = new HashMap<>();
        try {
            // the bound: the cable-lost event on every daemon's stream within 2 s of the pull, one deadline for all
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            Run pull = Run.of("lab", "cable", "down", "a:en2");
            assertThat(pull.code()).as(pull.err()).isZero();
            for (String node : nodes) {
                EventFollower.Event lost = nextOf(streams.get(node), "cable-lost", deadline, "on " + node + "'s stream within 2 s of lab cable down");
                assertThat(lost.data()).as(node).contains("\"subjects\":[\"a:en2\",\"b:en4\"]");
                seen.put(node, lost.id().orElseThrow());
            }
        } finally {
            streams.values().forEach(EventFollower::close);
        }
        // the bound is 2 s; the half second over it is polling slack
        await("the pulled cable a:en2-b:en4 leaves every daemon's matrix").atMost(Duration.ofMillis(2500))
                .pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                    for (String node : nodes) {
                        // ring edges are trimmed to the thinnest one, so every edge now carries one wire: no ring
                        JsonNode plan = plan(node, nodes);
                        assertThat(plan.get("rails").toString()).doesNotContain("\"a:en2\"", "\"b:en4\"");
                        assertThat(plan.get("devices").get(0).get(1).size()).isEqualTo(1);
                        assertThat(plan.get("devices").get(2).get(3).size()).isEqualTo(1);
                        assertThat(plan.get("ring").asBoolean()).isFalse();
                    }
                });

        Run again = Run.of("agree", "--lab", "b", "--wait-s", "20");
        assertThat(again.code()).as(again.out() + again.err()).isZero();
        // the hostfile written before the pull is stale: it names a's and b's old records. a's record changes at
        // once (its port went down); b's only when b's far end a:en2 expires, which may be after the matrices
        // dropped the cable (one end's record suffices for that) and after the agreement above
        await("the hostfile is stale against a's and b's new records").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(Run.of("check", hostfile.toString(), "--lab", "c").out())
                        .contains("warning stale-config", "a's record changed (version", "b's record changed (version"));

        assertThat(Run.of("lab", "cable", "up", "a:en2").code()).isZero();
        await("the plugged cable returns everywhere").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    for (String node : nodes) {
                        JsonNode plan = plan(node, nodes);
                        assertThat(plan.get("ring").asBoolean()).isTrue();
                        assertThat(plan.get("devices").get(0).get(1).size()).isEqualTo(2);
                    }
                });
        // a stream that reconnects with Last-Event-ID gets what happened while it was away: the cable's return
        try (EventFollower resumed = new EventFollower(LabSetup.daemonUrl("c"), Optional.of(seen.get("c")))) {
            assertThat(nextOf(resumed, "cable-added", System.nanoTime() + Duration.ofSeconds(5).toNanos(), "within 5 s of resuming").data())
                    .contains("\"subjects\":[\"a:en2\",\"b:en4\"]");
        }
    }

    /** Issue 13: after a cable pull the cable leaves the page without a reload, moved by the event stream ({@code GET /v1/events}). */
    @Test
    @Order(4)
    void aPulledCableLeavesThePageWithoutAReload() throws Exception {
        Optional<String> noBrowser = Browser.skipped();
        org.junit.jupiter.api.Assumptions.assumeTrue(noBrowser.isEmpty(), () -> "topology page in a browser skipped: " + noBrowser.orElseThrow());
        LabTopology topology = up("four-ring-double.json");
        try (TopologyPage page = page("d")) {
            await("the page shows every cable and is live").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> {
                        assertThat(page.cables()).isEqualTo(drawn(topology));
                        assertThat(page.live()).startsWith("live: ");
                    });
            page.script("window.railmapNotReloaded = true;");
            aMisplacedJobIsOnThePageUntilItsRanksExit(page);

            assertThat(Run.of("lab", "cable", "down", "a:en2").code()).isZero();
            await("the pulled cable leaves the page").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(page.cables()).doesNotContain("a:en2 b:en4").hasSize(drawn(topology).size() - 1));
            assertThat(page.script("return window.railmapNotReloaded === true;")).isEqualTo(true);

            assertThat(Run.of("lab", "cable", "up", "a:en2").code()).isZero();
            await("the plugged cable returns to the page").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(page.cables()).isEqualTo(drawn(topology)));
            assertThat(page.script("return window.railmapNotReloaded === true;")).isEqualTo(true);
        }
    }

    /**
     * Issue 28: stand-in ranks of a jaccl job ({@code sleep} with jaccl's settings) in a's and b's namespaces, each
     * rank having picked its own cable towards the other (exo's failure): the job's line, its verdict and finding
     * appear on the page without a reload, the cables the finding names are outlined, and the job leaves when its
     * ranks exit.
     */
    private static void aMisplacedJobIsOnThePageUntilItsRanksExit(TopologyPage page) throws Exception {
        JsonNode devices = plan("a", List.of("a", "b")).get("devices");
        String onA = devices.get(0).get(1).get(0).asText();
        String onB = devices.get(1).get(0).get(1).asText(); // the other cable's end: rail 0 names two cables
        String railZeroOnA = "a:" + netdev(devices.get(0).get(1).get(0));
        List<Process> ranks = new ArrayList<>();
        long started = System.nanoTime();
        try {
            ranks.add(rank("a", 0, "[[null, \"" + onA + "\"], [null, null]]"));
            ranks.add(rank("b", 1, "[[null, null], [\"" + onB + "\", null]]"));
            await("the job is on the page with its verdict").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        // the coordinator is HTML: the page shows it as text, and runs nothing
                        assertThat(page.jobs()).containsExactly("jaccl " + HOSTILE_COORDINATOR + " | 0,1 | a,b | error");
                        // the whole sentence, naming a's cable of rail 0 (the sentence, unlike a name, is not cut at 200 characters)
                        assertThat(page.jobFindings()).anyMatch(f -> f.startsWith("error job-rail-mismatch: ") && !f.endsWith("…")
                                && f.contains(railZeroOnA + " and b:"));
                        assertThat(page.jobCables()).anyMatch(c -> c.startsWith(railZeroOnA + " "))
                                .allMatch(c -> c.startsWith("a:") && c.contains(" b:"));
                    });
            assertThat(page.script("return window.railmapInjected === undefined && document.querySelectorAll('#jobs img').length === 0;"))
                    .isEqualTo(true);
            System.out.println("LabEndToEndTest: the job was on the page " + Duration.ofNanos(System.nanoTime() - started).toMillis()
                    + " ms after its ranks started");
        } finally {
            for (Process p : ranks) {
                p.destroy();
                assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
        }
        long ended = System.nanoTime();
        await("the job leaves the page with its ranks").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    assertThat(page.jobs()).isEmpty();
                    assertThat(page.jobCables()).isEmpty();
                });
        System.out.println("LabEndToEndTest: the job left the page " + Duration.ofNanos(System.nanoTime() - ended).toMillis()
                + " ms after its ranks exited");
    }

    /** The stand-in job's coordinator, which names it: a user chooses it, so it may be HTML. */
    private static final String HOSTILE_COORDINATOR = "<img src=x onerror=window.railmapInjected=1>:5000";

    /** A stand-in jaccl rank in lab node {@code node}'s namespace: {@code sleep} with jaccl's settings, its devices file {@code rows}. */
    private static Process rank(String node, int rank, String rows) throws Exception {
        Path file = Files.writeString(dir.resolve("devices-" + node + ".json"), rows + "\n");
        List<String> command = LabSetup.lab().execCommand(LabNames.node("NODE", node), List.of("env", "-i", "PATH=/usr/bin:/bin",
                "MLX_RANK=" + rank, "MLX_IBV_DEVICES=" + file, "MLX_JACCL_COORDINATOR=" + HOSTILE_COORDINATOR, "sleep", "60"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    void aKilledDaemonsCablesLeaveTheSurvivorsAndReturnWithIt() throws Exception {
        up("three-mesh-doubled.json");
        assertThat(Run.of("lab", "kill", "a").code()).isZero();
        // lab timing drops a killed daemon within about a second; 3 s is the bound for a killed daemon
        await("a's cables leave b's and c's topology").atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> {
                    for (String survivor : List.of("b", "c")) {
                        JsonNode plan = plan(survivor, List.of("b", "c"));
                        assertThat(Run.of("matrix", "--lab", survivor, "--hosts", "a,b,c").err()).contains("no record for node a");
                        assertThat(plan.get("devices").get(0).get(1).size()).isEqualTo(1);
                    }
                });

        assertThat(Run.of("lab", "start", "a").code()).isZero();
        await("a's cables return").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .untilAsserted(() -> {
                    for (String node : List.of("a", "b", "c")) {
                        JsonNode plan = plan(node, List.of("a", "b", "c"), "--no-equal-ring-wires");
                        assertThat(plan.get("devices").get(0).get(1).size()).isEqualTo(2);
                        assertThat(plan.get("devices").get(0).get(2).size()).isEqualTo(1);
                    }
                });
    }

    /** node port → the node ports it hears hellos from, as {@code railmap ports --lab NODE --json} shows. */
    private static java.util.Map<String, Set<String>> heard(String node) {
        Run ports = Run.of("ports", "--lab", node, "--json");
        assertThat(ports.code()).as(ports.err()).isZero();
        java.util.Map<String, Set<String>> out = new java.util.TreeMap<>();
        for (Port port : SnapshotCodec.readRecord("ports --lab " + node, ports.out()).ports()) {
            Set<String> far = new java.util.TreeSet<>();
            port.neighbours().forEach(n -> far.add(n.toString()));
            out.put(port.netdev(), far);
        }
        return out;
    }

    /** The node ports cabled to the same switch as {@code port}, from the topology file. */
    private static Set<String> onTheSameSwitch(LabTopology topology, PortRef port) {
        String sw = topology.cableAt(port).orElseThrow().farEnd(port).node();
        Set<String> out = new java.util.TreeSet<>();
        for (Cable c : topology.cables()) {
            for (PortRef end : List.of(c.a(), c.b())) {
                if (c.farEnd(end).node().equals(sw) && !end.equals(port)) {
                    out.add(end.toString());
                }
            }
        }
        return out;
    }

    /**
     * Two leaves: the probe's hellos pass through each leaf's bridge, so each node port hears every
     * other node port on its leaf and none on the other; after g3's NICs are swapped between the
     * leaves with {@code lab cable move}, the daemons hear the file two-leaves-swapped.json describes.
     */
    @Test
    void nodesOnALeafHearEachOtherThroughItsBridgeAndAMovedCableIsHeardOnItsNewLeaf() throws Exception {
        LabTopology topology = up("two-leaves.json");
        for (String node : topology.nodes()) {
            for (String port : topology.ports(node)) {
                assertThat(heard(node).get(port)).as("%s:%s hears", node, port)
                        .isEqualTo(onTheSameSwitch(topology, new PortRef(node, port)));
            }
        }
        Run status = Run.of("lab", "status");
        assertThat(status.out()).contains("4 nodes, 2 switches, 8 cables", "leaf0: switch, lldpd pid", "p4 up");
        // issue 11: every daemon reads its switches from its lldpd, and all number the leaves alike, as the file cables them
        await("every daemon's rail table holds both leaves as the file cables them").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    for (String node : topology.nodes()) {
                        JsonNode rails = rails(node);
                        assertThat(railRows(rails)).as("rails seen by %s", node).containsExactly(
                                "0 leaf0 rdma_eth2: g1:eth2 p1 lldp, g2:eth2 p2 lldp, g3:eth2 p3 lldp, g4:eth2 p4 lldp",
                                "1 leaf1 rdma_eth3: g1:eth3 p1 lldp, g2:eth3 p2 lldp, g3:eth3 p3 lldp, g4:eth3 p4 lldp");
                        assertThat(rails.get("findings")).as("findings of %s", node).isEmpty();
                    }
                });
        thePageDrawsTheRailDiagram(topology);

        // issue 29: leaf0 announces node g2's name (LLDP is unauthenticated): the impostor is named, the rail stays the probe's segment
        leafCalled("leaf0", "g2");
        await("g1's daemon names leaf0's LLDP impostor").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    Run check = Run.of("check", "--rails", "--lab", "g1");
                    assertThat(check.code()).as(check.out() + check.err()).isZero();
                    assertThat(check.out()).contains("warning lldp-impostor", "g1:eth2's LLDP neighbour (chassis leaf0, port p1) calls itself g2,"
                            + " the name of node g2, but the probe hears a shared segment there (g2:eth2, g3:eth2, g4:eth2)");
                    assertThat(railRows(rails("g1"))).hasSize(2).element(0).asString().startsWith("0 segment of ").contains("rdma_eth2: ");
                });
        leafCalled("leaf0", "leaf0");
        await("the impostor leaves with leaf0's own name").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(rails("g1").get("findings")).isEmpty());

        // issue 12: NCCL's rail ids are the leaves' rails, on every node
        for (String node : topology.nodes()) {
            Run nccl = assertNcclRailsAreLeaves(topology, node);
            assertThat(nccl.code()).as(nccl.out()).isZero();
            assertThat(nccl.out()).doesNotContain("cross-rail");
        }

        Run move1 = Run.of("lab", "cable", "move", "g3:eth2", "leaf1:p5");
        assertThat(move1.code()).as(move1.err()).isZero();
        Run move2 = Run.of("lab", "cable", "move", "g3:eth3", "leaf0:p3");
        assertThat(move2.code()).as(move2.err()).isZero();
        Run taken = Run.of("lab", "cable", "move", "g3:eth2", "leaf0:p1");
        assertThat(taken.code()).isEqualTo(ExitCodes.LAB);
        assertThat(taken.err()).contains("cannot move g3:eth2 to leaf0:p1: port leaf0:p1 ends two cables");
        Run move3 = Run.of("lab", "cable", "move", "g3:eth2", "leaf1:p3");
        assertThat(move3.code()).as(move3.err()).isZero();
        LabTopology swapped = LabTopology.read("swapped", Files.readString(ROOT.resolve("examples/two-leaves-swapped.json")));
        await("every daemon hears the swapped cabling").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    for (String node : swapped.nodes()) {
                        for (String port : swapped.ports(node)) {
                            assertThat(heard(node).get(port)).as("%s:%s hears", node, port)
                                    .isEqualTo(onTheSameSwitch(swapped, new PortRef(node, port)));
                        }
                    }
                });
        // the swap is cross-rail on g3's two NICs, through every daemon, and the rails keep their ids
        await("every daemon names g3's two NICs cross-rail").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    for (String node : swapped.nodes()) {
                        Run check = Run.of("check", "--rails", "--lab", node);
                        assertThat(check.code()).as(check.out() + check.err()).isEqualTo(ExitCodes.FINDINGS);
                        assertThat(check.out()).contains(
                                "error cross-rail [rail 0] g3:eth2 (rdma_eth2) reaches rail 1 (leaf1) port p3",
                                "move g3's rdma_eth2 cable to leaf0",
                                "error cross-rail [rail 1] g3:eth3 (rdma_eth3) reaches rail 0 (leaf0) port p3",
                                "rails: 2 errors, 0 warnings");
                    }
                });

        // issue 12: g3's swapped NICs carry the rail id of the leaf they reach now, not of their name; NCCL pairs NICs by
        // position, so g3's gets a cross-rail finding naming the cable to move, and the other nodes none
        for (String node : swapped.nodes()) {
            Run nccl = assertNcclRailsAreLeaves(swapped, node);
            if (node.equals("g3")) {
                // a lab port is an Ethernet veth with an assumed RDMA name, not RoCE: no subnet-aware routing can fix it, an error
                assertThat(nccl.code()).isEqualTo(ExitCodes.FINDINGS);
                assertThat(nccl.out()).contains("# error cross-rail [rail 0] rdma_eth2:1 (g3:eth2) is on rail 1 (leaf1), but rdma_eth2 of most nodes is on rail 0 (leaf0)",
                        "move g3's rdma_eth2 cable to leaf0", "rdma_eth3:1 (g3:eth3) is on rail 0 (leaf0)", "move g3's rdma_eth3 cable to leaf1");
            } else {
                assertThat(nccl.code()).as(nccl.out()).isZero();
                assertThat(nccl.out()).as("nccl settings of %s", node).doesNotContain("cross-rail");
            }
        }

        Run stop = Run.of("lab", "lldpd", "stop", "g2");
        assertThat(stop.code()).as(stop.err()).isZero();
        assertThat(Run.of("lab", "status").out()).contains("g2: daemon pid").contains("lldpd stopped");
        // without its lldpd, g2's NICs name no switch: the probe still places them on their leaves, and says so; no wrong rail
        await("g2's NICs are placed by the probe only, with unknown-far-end").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    JsonNode rails = rails("g1");
                    assertThat(railRows(rails)).containsExactly(
                            "0 leaf0 rdma_eth2: g1:eth2 p1 lldp, g2:eth2 - probe, g3:eth3 p3 lldp, g4:eth2 p4 lldp",
                            "1 leaf1 rdma_eth3: g1:eth3 p1 lldp, g2:eth3 - probe, g3:eth2 p3 lldp, g4:eth3 p4 lldp");
                    assertThat(rails.get("findings").toString()).contains("unknown-far-end",
                            "g2:eth2 (rdma_eth2) names no switch at its far end", "run lldpd on g2 with LLDP on eth2");
                });
        Run unknown = Run.of("lab", "lldpd", "stop", "spine");
        assertThat(unknown.code()).isEqualTo(ExitCodes.LAB);
        assertThat(unknown.err()).contains("spine is not a node or switch of the lab");
    }

    /**
     * @param deadline a {@link System#nanoTime()} value
     * @param bound    the bound in words, for the failure
     * @return the next event of that type on the stream, failing once the deadline has passed
     */
    private static EventFollower.Event nextOf(EventFollower stream, String type, long deadline, String bound) throws InterruptedException {
        while (deadline - System.nanoTime() > 0) {
            Optional<EventFollower.Item> item = stream.next(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (item.isPresent() && item.get() instanceof EventFollower.Event e && e.type().equals(type)) {
                return e;
            }
        }
        throw new AssertionError("no " + type + " event " + bound);
    }

    /**
     * Asserts that {@code railmap env --for nccl} on the node names its two NICs in NCCL_IB_HCA, each with the rail id of
     * the leaf the file cables it to (leaf k is rail k: the rails are numbered by their HCA name), and returns the run.
     */
    private static Run assertNcclRailsAreLeaves(LabTopology topology, String node) {
        Run env = Run.of("env", "--lab", node, "--node", node, "--for", "nccl");
        assertThat(env.err()).as("env --for nccl on %s", node).doesNotContain("Exception");
        List<String> expected = new ArrayList<>();
        for (String port : List.of("eth2", "eth3")) {
            String leaf = topology.cableAt(new PortRef(node, port)).orElseThrow().farEnd(new PortRef(node, port)).node();
            expected.add("rdma_" + port + ":1:" + leaf.substring("leaf".length()));
        }
        assertThat(env.out()).as("env --for nccl on %s", node).contains("NCCL_IB_HCA==" + String.join(",", expected) + "\n",
                "NCCL_CROSS_NIC=0\n");
        return env;
    }

    /** Sets the system name a lab switch's lldpd announces, through lldpcli on its control socket. */
    private static void leafCalled(String leaf, String name) throws Exception {
        Path socket = dir.resolve("lab").resolve("lldpd-" + leaf + ".sock");
        Process p = new ProcessBuilder("/usr/sbin/lldpcli", "-u", socket.toString(), "configure", "system", "hostname", name)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).as("lldpcli ends").isTrue();
        assertThat(p.exitValue()).as("lldpcli configure system hostname %s: %s", name, out).isZero();
    }

    private static JsonNode rails(String node) throws Exception {
        Run run = Run.of("rails", "--lab", node, "--json");
        assertThat(run.code()).as(run.err()).isZero();
        return new ObjectMapper().readTree(run.out());
    }

    /** @return one line per rail: {@code id name hca: node:port switchPort placedBy, ...} */
    private static List<String> railRows(JsonNode rails) {
        List<String> rows = new ArrayList<>();
        for (JsonNode rail : rails.get("rails")) {
            List<String> nics = new ArrayList<>();
            for (JsonNode nic : rail.get("nics")) {
                nics.add(nic.get("node").asText() + ":" + nic.get("port").asText() + " "
                        + (nic.get("switchPort").isNull() ? "-" : nic.get("switchPort").asText()) + " " + nic.get("placedBy").asText());
            }
            rows.add(rail.get("rail").asInt() + " " + rail.get("name").asText() + " " + rail.get("hca").asText() + ": " + String.join(", ", nics));
        }
        return rows;
    }

    /**
     * Two nodes on one switch and a plain cable between them: the probe hears the switch's two ports
     * as one more cable, which lab up does not hold against the daemons (the matrix has both).
     */
    @Test
    void aSwitchWithTwoNodesOnItDoesNotKeepLabUpWaiting() throws Exception {
        Path file = Files.writeString(dir.resolve("one-leaf.json"), "{\"nodes\": [\"g1\", \"g2\"], \"switches\": [\"leaf0\"], "
                + "\"cables\": [[\"g1:eth2\", \"leaf0:p1\"], [\"g2:eth2\", \"leaf0:p2\"], [\"g1:en6\", \"g2:en7\"]]}");
        Run up = Run.of("lab", "up", "--topology", file.toString(), "--wait-s", "60");
        assertThat(up.code()).as(up.out() + up.err()).isZero();
        assertThat(up.out()).contains("g1:en6", "g2:en7");
        assertThat(up.err()).contains("2 nodes, 1 switch (lldpd on every node and switch), 3 cables");
        assertThat(heard("g1")).isEqualTo(java.util.Map.of("eth2", Set.of("g2:eth2"), "en6", Set.of("g2:en7")));
    }

    @Test
    void aTopologyFileWithACableBetweenTwoSwitchesIsRefusedBeforeAnythingIsMade() throws Exception {
        Path file = Files.writeString(dir.resolve("switch-to-switch.json"), "{\"nodes\": [\"g1\"], \"switches\": [\"leaf0\", \"leaf1\"], "
                + "\"cables\": [[\"g1:eth2\", \"leaf0:p1\"], [\"leaf0:p2\", \"leaf1:p1\"]]}");
        Run up = Run.of("lab", "up", "--topology", file.toString());
        assertThat(up.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(up.err()).contains("joins two switches").doesNotContain("Exception");
        assertThat(Netns.list()).noneMatch(ns -> ns.startsWith("rme2e-"));
    }
}
