package io.railmap.matrix.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.CheckReport;
import io.railmap.matrix.check.FileCheck;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.emit.RailTableJson;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.library.EnvCheck;
import io.railmap.matrix.library.EnvCheckJson;
import io.railmap.matrix.library.EnvFile;
import io.railmap.matrix.library.Libraries;
import io.railmap.matrix.library.Library;
import io.railmap.matrix.library.ComputeNics;
import io.railmap.matrix.library.NodeEnv;
import io.railmap.matrix.library.NodeEnvJson;
import io.railmap.matrix.library.NodeNics;
import io.railmap.matrix.library.NodeSettings;
import io.railmap.matrix.library.SettingsOptions;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.DeviceMatrix;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link PlanJson}, {@link PlanJson.CheckJson}, {@link RailTableJson}, {@link FindingJson}, {@link NodeEnvJson}
 * ({@code railmap env --json}, {@code GET /v1/env?format=json}) and {@link EnvCheckJson} ({@code railmap check
 * --env --json}), records written by Jackson since issue 31, write the very bytes the hand-built trees wrote
 * before them: the old builders are kept here, verbatim, as the reference, and compared on every example
 * snapshot of {@code examples/snapshots} (every node, both orders, several MLX releases; the crossed devices
 * file and the four studios' hostfile checked, with and without the rail table; every library of
 * {@link Libraries#ALL} alone and all together, every node's env checked against it and against another
 * node) and on the switched fabrics of {@link Fabric} (strays, segments the probe found, a NIC of unknown
 * rate). Here, beside {@link Fabric}, because that builder is this package's.
 */
class JsonRecordsTest {
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final List<MlxVersion> VERSIONS = List.of(MlxVersion.FIRST_JACCL, MlxVersion.RING, MlxVersion.MULTI_NAME, MlxVersion.NEWEST);

    private static List<Path> snapshots() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES.resolve("snapshots"))) {
            return files.filter(p -> !p.getFileName().toString().contains("devices")).sorted().toList();
        }
    }

    private static Snapshot read(Path file) throws IOException {
        return SnapshotCodec.readSnapshot(file.getFileName().toString(), Files.readString(file));
    }

    @Test
    void plansAreByteIdenticalOnEveryExample() throws IOException {
        int compared = 0;
        for (Path file : snapshots()) {
            Snapshot snapshot = read(file);
            Topology topology = Topology.of(snapshot);
            List<String> nodes = snapshot.nodes();
            List<String> reversed = new ArrayList<>(nodes);
            Collections.reverse(reversed);
            for (List<String> asked : List.of(nodes, reversed, nodes.subList(0, 2))) {
                for (Order order : Order.values()) {
                    for (MlxVersion version : VERSIONS) {
                        Plan plan;
                        try {
                            plan = Planner.plan(topology, asked, order, RailOptions.DEFAULTS, version);
                        } catch (RuntimeException noRing) {
                            continue;
                        }
                        assertThat(PlanJson.render(plan)).as("%s %s %s %s", file, asked, order, version).isEqualTo(oldPlan(plan));
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isGreaterThan(50);
    }

    @Test
    void railTablesAreByteIdenticalOnEveryExampleAndFabric() throws IOException {
        List<RailTable> tables = new ArrayList<>();
        for (Path file : snapshots()) {
            tables.add(RailTable.of(Topology.of(read(file))));
        }
        tables.add(Fabric.railOptimised(3, 2).table());
        tables.add(Fabric.railOptimised(3, 2).move("g2:eth1", "leaf7").table());
        tables.add(Fabric.railOptimised(3, 2).change("g2:eth1", p -> p.withState(io.railmap.matrix.model.PortState.DOWN)).table());
        tables.add(Fabric.railOptimised(3, 2).change("g3:eth0", JsonRecordsTest::rateUnknown).move("g1:eth1", "leaf9").table());
        tables.add(Fabric.probedSegments(3, 2).table());
        assertThat(tables).anySatisfy(t -> assertThat(t.strays()).isNotEmpty())
                .anySatisfy(t -> assertThat(t.rails()).anySatisfy(r -> assertThat(r.kind()).isEqualTo(Rail.Kind.SEGMENT)))
                .anySatisfy(t -> assertThat(t.rails()).anySatisfy(r -> assertThat(r.nics()).anySatisfy(n -> assertThat(n.rateGbps()).isEmpty())))
                .anySatisfy(t -> assertThat(t.findings()).isNotEmpty());
        for (RailTable table : tables) {
            assertThat(RailTableJson.render(table)).isEqualTo(JsonText.pretty(oldRailTable(table)));
        }
        Topology topology = Topology.of(new Snapshot(Fabric.railOptimised(3, 2).move("g2:eth1", "leaf7").records()));
        Plan plan = Planner.plan(topology, List.of("g1", "g3"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);
        assertThat(PlanJson.render(plan)).isEqualTo(oldPlan(plan));
    }

    private static Port rateUnknown(Port p) {
        return new Port(p.node(), p.netdev(), p.rdma(), p.rdmaPort(), p.kind(), Optional.empty(), p.state(), p.thunderbolt(), p.addresses(),
                p.prefixLengths(), p.addressesKnown(), p.bridge(), p.switchPort(), p.gidIndex(), p.infiniband(), p.neighbours());
    }

    @Test
    void checksAreByteIdenticalForADevicesFileAndAHostfileWithAndWithoutTheRailTable() throws IOException {
        Snapshot crossed = read(EXAMPLES.resolve("snapshots/two-macs-crossed.json"));
        String devices = Files.readString(EXAMPLES.resolve("snapshots/two-macs-crossed-wrong-devices.json"));
        String hostfile = Files.readString(EXAMPLES.resolve("hostfiles/four-studios-ring.json"));
        List<CheckReport> reports = new ArrayList<>();
        List<Snapshot> snapshots = new ArrayList<>();
        for (Optional<Mode> mode : List.of(Optional.<Mode>empty(), Optional.of(Mode.MESH), Optional.of(Mode.RING))) {
            for (MlxVersion version : VERSIONS) {
                reports.add(FileCheck.check(crossed, "devices.json", devices, new CheckOptions(Optional.of(List.of("studio-a", "studio-b")),
                        mode, "--hosts", "--mode", version)));
                snapshots.add(crossed);
            }
        }
        for (String name : List.of("four-studios-ring.json", "four-studios-ring-ips.json")) {
            Snapshot studios = read(EXAMPLES.resolve("snapshots").resolve(name));
            for (Optional<Mode> mode : List.of(Optional.<Mode>empty(), Optional.of(Mode.RING), Optional.of(Mode.MLX_RING))) {
                try {
                    reports.add(FileCheck.check(studios, "hostfile.json", hostfile, new CheckOptions(Optional.empty(), mode, "--hosts", "--mode",
                            MlxVersion.NEWEST)));
                    snapshots.add(studios);
                } catch (RuntimeException refused) {
                    // a mode the hostfile cannot be checked as
                }
            }
        }
        assertThat(reports).anySatisfy(r -> assertThat(r.hostfile()).isPresent()).anySatisfy(r -> assertThat(r.hostfile()).isEmpty())
                .anySatisfy(r -> assertThat(r.hasErrors()).isTrue());
        for (int i = 0; i < reports.size(); i++) {
            CheckReport report = reports.get(i);
            assertThat(PlanJson.check(report)).isEqualTo(oldCheck(report, Optional.empty()));
            Optional<RailTable> table = Optional.of(RailTable.of(Topology.of(snapshots.get(i))));
            assertThat(PlanJson.check(report, table)).isEqualTo(oldCheck(report, table));
        }
    }

    /**
     * Every example snapshot; switched fabrics (rails by LLDP, a stray, a NIC of unknown rate, probed segments); a mesh
     * whose ring differs from jaccl's order.
     */
    private static List<Topology> envTopologies() throws IOException {
        List<Topology> out = new ArrayList<>();
        for (Path file : snapshots()) {
            out.add(Topology.of(read(file)));
        }
        for (Fabric f : List.of(Fabric.railOptimised(3, 2), Fabric.railOptimised(3, 2).move("g2:eth1", "leaf7"),
                Fabric.railOptimised(3, 2).change("g3:eth0", JsonRecordsTest::rateUnknown), Fabric.probedSegments(3, 2))) {
            out.add(Topology.of(new Snapshot(f.records())));
        }
        out.add(Topology.of(io.railmap.matrix.Cluster.meshWithAnAddressedRing())); // jaccl,mlx-ring: a setting-conflict
        return out;
    }

    @Test
    void nodeEnvsAreByteIdenticalForEveryLibraryOnEveryExampleAndFabric() throws IOException {
        ObjectMapper cli = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT); // as railmap env --json wrote it
        List<Library> reversed = new ArrayList<>(Libraries.ALL);
        Collections.reverse(reversed);
        List<NodeEnv> envs = new ArrayList<>();
        for (Topology topology : envTopologies()) {
            for (String node : topology.nodes()) {
                // each library alone; all of them in one file, both ways round (a variable two set differently is a
                // setting-conflict), also with a rate no NIC reaches and with ModelExpress's stripe
                for (Library library : Libraries.ALL) {
                    envs.add(NodeEnv.of(topology, node, List.of(library), SettingsOptions.DEFAULTS));
                }
                envs.add(NodeEnv.of(topology, node, reversed, SettingsOptions.DEFAULTS));
                for (SettingsOptions o : List.of(SettingsOptions.DEFAULTS, new SettingsOptions(Optional.of(1000.0), false),
                        new SettingsOptions(Optional.empty(), true))) {
                    envs.add(NodeEnv.of(topology, node, Libraries.ALL, o));
                }
            }
        }
        assertThat(envs).anySatisfy(e -> assertThat(e.findings()).isNotEmpty())
                .anySatisfy(e -> assertThat(e.findings()).isEmpty())
                .anySatisfy(e -> assertThat(e.libraries()).anySatisfy(l -> assertThat(l.settings()).isEmpty()))
                .anySatisfy(e -> assertThat(e.libraries()).anySatisfy(l -> assertThat(l.settings()).hasSizeGreaterThan(2)))
                .anySatisfy(e -> assertThat(e.libraries()).anySatisfy(l -> assertThat(l.findings())
                        .anySatisfy(f -> assertThat(f.code()).isEqualTo(Code.SETTING_CONFLICT))))
                .anySatisfy(e -> assertThat(e.libraries()).anySatisfy(l -> assertThat(l.findings())
                        .anySatisfy(f -> assertThat(f.rail()).isPresent())));
        for (NodeEnv env : envs) {
            ObjectNode old = oldEnv(env);
            assertThat(env.json()).as("%s %s", env.node(), env.libraries().stream().map(NodeSettings::library).toList())
                    .isEqualTo(cli.writeValueAsString(old) + "\n")
                    .isEqualTo(JsonText.pretty(old)); // as GET /v1/env?format=json wrote it
        }
        assertThat(envs).hasSizeGreaterThan(200);
    }

    @Test
    void envChecksAreByteIdenticalForEveryLibrarysVariablesCheckedOnTheNextNode() throws IOException {
        List<String> json = new ArrayList<>();
        List<String> old = new ArrayList<>();
        boolean errors = false;
        boolean nothingChecked = false;
        boolean invisible = false;
        for (Topology topology : envTopologies()) {
            List<String> nodes = topology.nodes();
            for (int n = 0; n < nodes.size(); n++) {
                String node = nodes.get(n);
                String other = nodes.get((n + 1) % nodes.size());
                // every library's variables, as railmap env wrote them for the next node; with a CR, an unknown HCA and netdev
                String text = NodeEnv.of(topology, other, Libraries.ALL, SettingsOptions.DEFAULTS).text();
                NodeNics nics = ComputeNics.of(topology, RailTable.of(topology), node, SettingsOptions.DEFAULTS);
                for (String file : List.of(text, text + "NCCL_IB_HCA=mlx5_99\r\nUCX_NET_DEVICES=eth9:1\n", "# nothing\n")) {
                    EnvFile read = EnvFile.parse("gpu \"01\".env", file);
                    Map<String, String> vars = read.variables();
                    List<Finding> findings = new ArrayList<>(read.findings());
                    findings.addAll(EnvCheck.check(nics, vars));
                    List<String> checked = EnvCheck.VARIABLES.stream().filter(vars::containsKey).toList();
                    errors |= findings.stream().anyMatch(Finding::isError);
                    nothingChecked |= checked.isEmpty();
                    invisible |= !read.findings().isEmpty();
                    json.add(EnvCheckJson.render("gpu \"01\".env", node, checked, findings));
                    old.add(oldEnvCheck("gpu \"01\".env", node, checked, findings));
                }
            }
        }
        assertThat(errors).isTrue();
        assertThat(nothingChecked).isTrue();
        assertThat(invisible).isTrue();
        assertThat(json).hasSizeGreaterThan(50).isEqualTo(old);
    }

    @Test
    void findingsAreByteIdenticalWithAndWithoutRailAndPorts() {
        List<Finding> findings = List.of(new Finding(Code.ONE_RANK, Severity.ERROR, List.of(0), Optional.empty(), "one rank"),
                new Finding(Code.MISMATCHED_RAIL, Severity.WARNING, List.of(0, 1), Optional.of(1), List.of(PortRef.parse("a:en6"),
                        PortRef.parse("b:en7")), "a \"quoted\" sentence – with ünicode"),
                new Finding(Code.CROSS_RAIL, Severity.INFO, List.of(), Optional.of(0), List.of(PortRef.parse("g1:eth0")), "x"));
        assertThat(JsonText.tree(FindingJson.of(findings)).toString()).isEqualTo(oldFindings(findings).toString());
        assertThat(JsonText.pretty(JsonText.tree(FindingJson.of(findings)))).isEqualTo(JsonText.pretty(oldFindings(findings)));
        assertThat(JsonText.write(FindingJson.of(findings))).isEqualTo(JsonText.pretty(oldFindings(findings)));
        assertThat(JsonText.write(FindingJson.of(List.of()))).isEqualTo(JsonText.pretty(oldFindings(List.of())));
    }

    // The builders as they were before issue 31 (PlanJson, RailTableJson, FindingJson; NodeEnv.json() and
    // railmap check --env --json, FindingJson.array their findings'), verbatim but for their names.

    private static ObjectNode oldEnv(NodeEnv env) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("node", env.node());
        root.set("findings", oldFindings(env.findings()));
        ArrayNode list = root.putArray("libraries");
        for (NodeSettings s : env.libraries()) {
            ObjectNode o = list.addObject();
            o.put("library", s.library());
            ObjectNode settings = o.putObject("settings");
            s.settings().forEach(v -> settings.put(v.key(), v.value()));
            o.set("findings", oldFindings(s.findings()));
        }
        return root;
    }

    /** What {@code out.println(root.toPrettyString())} printed (a line separator of {@code \n}). */
    private static String oldEnvCheck(String name, String node, List<String> checked, List<Finding> findings) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("file", name);
        root.put("node", node);
        checked.forEach(root.putArray("checked")::add);
        root.put("errors", findings.stream().filter(Finding::isError).count());
        root.set("findings", oldFindings(findings));
        return root.toPrettyString() + "\n";
    }

    private static ArrayNode oldFindings(List<Finding> findings) {
        ArrayNode out = JsonText.array();
        for (Finding f : findings) {
            ObjectNode o = out.addObject();
            o.put("code", f.code().externalName());
            o.put("severity", f.severity().externalName());
            ArrayNode ranks = o.putArray("ranks");
            f.ranks().forEach(ranks::add);
            if (f.rail().isPresent()) {
                o.put("rail", f.rail().get());
            } else {
                o.putNull("rail");
            }
            ArrayNode ports = o.putArray("ports");
            f.ports().forEach(p -> ports.add(p.toString()));
            o.put("message", f.message());
        }
        return out;
    }

    private static ObjectNode oldRailTable(RailTable table) {
        ObjectNode root = JsonText.object();
        ArrayNode rails = root.putArray("rails");
        for (Rail rail : table.rails()) {
            ObjectNode r = rails.addObject();
            r.put("rail", rail.id());
            r.put("kind", rail.kind().externalName());
            r.put("identity", rail.identity());
            r.put("name", rail.name());
            r.put("hca", rail.hca());
            ArrayNode nics = r.putArray("nics");
            rail.nics().forEach(n -> oldNic(nics.addObject(), n));
        }
        ArrayNode strays = root.putArray("strays");
        table.strays().forEach((n, reaches) -> oldNic(strays.addObject(), n).put("reaches", reaches));
        root.set("findings", oldFindings(table.findings()));
        return root;
    }

    private static ObjectNode oldNic(ObjectNode o, RailNic n) {
        o.put("node", n.node());
        o.put("port", n.port().netdev());
        o.put("hca", n.hca());
        o.put("rateGbps", n.rateGbps().orElse(null));
        o.put("switchPort", n.switchPort().orElse(null));
        o.put("placedBy", n.placedBy());
        return o;
    }

    private static String oldPlan(Plan plan) {
        DeviceMatrix m = plan.matrix();
        ObjectNode root = JsonText.object();
        ArrayNode ranks = root.putArray("ranks");
        plan.ranks().forEach(ranks::add);
        root.put("ring", plan.ring());
        if (plan.mode().isPresent()) {
            root.put("mode", plan.mode().get().externalName());
        } else {
            root.putNull("mode");
        }
        root.put("runRing", plan.runRing());
        root.put("validMesh", plan.validMesh());
        root.put("validRing", plan.validRing());
        root.put("mlxVersion", plan.mlxVersion().toString());
        if (plan.minMlxVersion().isPresent()) {
            root.put("minMlxVersion", plan.minMlxVersion().get().toString());
        } else {
            root.putNull("minMlxVersion");
        }
        ArrayNode devices = root.putArray("devices");
        for (List<List<String>> row : m.devices()) {
            ArrayNode r = devices.addArray();
            for (List<String> cell : row) {
                ArrayNode c = r.addArray();
                cell.forEach(c::add);
            }
        }
        ArrayNode rails = root.putArray("rails");
        for (int i = 0; i < m.size(); i++) {
            for (int j = i + 1; j < m.size(); j++) {
                List<Cable> pair = m.rails(i, j);
                for (int k = 0; k < pair.size(); k++) {
                    ObjectNode rail = rails.addObject();
                    rail.putArray("ranks").add(i).add(j);
                    rail.put("rail", k);
                    rail.putArray("cable").add(pair.get(k).end(m.ranks().get(i)).toString())
                            .add(pair.get(k).end(m.ranks().get(j)).toString());
                }
            }
        }
        ObjectNode topology = root.putObject("topology");
        topology.put("digest", plan.provenance().digest());
        ArrayNode records = topology.putArray("records");
        plan.provenance().records().forEach(id -> records.add(id.toString()));
        root.set("findings", oldFindings(plan.findings()));
        root.set("railTable", oldRailTable(plan.railTable()));
        return JsonText.pretty(root);
    }

    private static String oldCheck(CheckReport report, Optional<RailTable> rails) {
        ObjectNode root = JsonText.object();
        ArrayNode r = root.putArray("ranks");
        report.ranks().forEach(r::add);
        root.put("mode", report.mode().externalName());
        root.put("mlxVersion", report.mlxVersion().toString());
        root.put("errors", report.findings().stream().filter(Finding::isError).count()
                + rails.map(t -> t.findings().stream().filter(Finding::isError).count()).orElse(0L));
        report.hostfile().ifPresent(h -> {
            ObjectNode hostfile = root.putObject("hostfile");
            hostfile.put("file", report.source());
            hostfile.put("backend", h.file().backend().orElse(null));
            ArrayNode hosts = hostfile.putArray("hosts");
            h.file().sshNames().forEach(hosts::add);
            hostfile.put("modeFrom", h.mode().from().externalName());
        });
        root.set("findings", oldFindings(report.findings()));
        rails.ifPresent(t -> root.set("railTable", oldRailTable(t)));
        return JsonText.pretty(root);
    }
}
