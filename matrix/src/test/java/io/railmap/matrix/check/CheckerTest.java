package io.railmap.matrix.check;

import io.railmap.matrix.jaccl.MlxVersion;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Thunderbolt;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CheckerTest {
    /** Two Macs, two crossed cables: a:en6–b:en7 and a:en7–b:en6. */
    private final Topology crossed = Topology.of(new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").snapshot());
    private final List<String> ab = List.of("a", "b");

    /** cells from a compact notation: rows of cells, a cell is "" (null) or names joined by '+'. */
    static List<List<List<String>>> cells(String... rows) {
        List<List<List<String>>> out = new ArrayList<>();
        for (String row : rows) {
            List<List<String>> cells = new ArrayList<>();
            for (String cell : row.split("\\|", -1)) {
                cells.add(cell.equals("-") ? List.of() : Arrays.asList(cell.split("\\+", -1)));
            }
            out.add(cells);
        }
        return out;
    }

    private static List<String> codes(List<Finding> findings) {
        return findings.stream().map(f -> f.severity().externalName() + " " + f.code().externalName()).toList();
    }

    @Test
    void theRightFileIsClean() {
        List<Finding> f = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(f).isEmpty();
    }

    @Test
    void aRingOfTwoWiresNeedsMlx0320() {
        // v0.31.2 lib/jaccl/ring_impl.h RingImpl::recv: the prefill of wire lw runs to the message's end,
        // not its own slice, so send/recv over two wires can hang; v0.32.0 counts from the slice (mlx #3654)
        List<List<List<String>>> two = cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-");
        List<Finding> old = Checker.check(crossed, ab, two, Mode.RING, MlxVersion.MULTI_NAME);
        assertThat(codes(old)).containsExactly("error needs-newer-mlx");
        assertThat(old.get(0).message()).contains("send/recv", "fixed in 0.32.0");
        assertThat(Checker.check(crossed, ab, two, Mode.RING, new MlxVersion(0, 32, 0))).isEmpty();
    }

    @Test
    void swappedWiresAtOneEndAreAMismatchedRail() {
        // each side picked its interfaces independently, sorted by name: the exo PR 2160 deadlock
        List<Finding> f = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en6+rdma_en7|-"), Mode.RING, MlxVersion.NEWEST);

        assertThat(codes(f)).containsExactly("error mismatched-rail", "error mismatched-rail");
        assertThat(f.get(0).ranks()).containsExactly(0, 1);
        assertThat(f.get(0).rail()).contains(0);
        assertThat(f.get(0).message()).contains("a:en6 and b:en6", "a:en6\u2013b:en7", "a:en7\u2013b:en6", "hang");
    }

    @Test
    void aNetdevNameIsAnErrorThatNamesTheRdmaDevice() {
        // jaccl looks devices up by ibv_get_device_name only (lib/jaccl/rdma.cpp, create_connections):
        // "en6" is not found ("Could not find device en6"), even though rdma_en6 drives it
        List<Finding> f = Checker.check(crossed, ab, cells("-|en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error netdev-name");
        assertThat(f.get(0).message()).contains("\"en6\"", "a:en6", "write \"rdma_en6\"");
        assertThat(f.get(0).rail()).contains(0);
    }

    @Test
    void aNetdevNameIsStillPairedSoACrossedRailShowsToo() {
        List<Finding> f = Checker.check(crossed, ab, cells("-|en6+en7", "en6+en7|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(f)).contains("error netdev-name", "error mismatched-rail");
    }

    /** A Thunderbolt port at {@code node:netdev} on bus domain {@code domain}, paired with {@code peerDomain}, whose probe heard {@code heard}. */
    private static Port thunderbolt(String node, String netdev, String domain, String peerDomain, String... heard) {
        Thunderbolt tb = new Thunderbolt(Optional.of(domain), Optional.of(peerDomain), 1, Optional.of(80.0), false, Optional.of("Mac"));
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.of(tb), Arrays.stream(heard).map(PortRef::parse).toList());
    }

    @Test
    void aNamedPortWhoseCableSourcesDisagreeSaysSoAsThePlanDoes() {
        // crossed cables a:en6-b:en7 and a:en7-b:en6, paired by Thunderbolt domain UUIDs; a forged hello made
        // a:en6's probe hear b:en6: a:en6 and its paired b:en7 lose their cable, a:en7-b:en6 stays
        Topology t = Topology.of(new Cluster()
                .put(thunderbolt("a", "en6", "A6", "B7", "b:en6")).put(thunderbolt("a", "en7", "A7", "B6"))
                .put(thunderbolt("b", "en7", "B7", "A6")).put(thunderbolt("b", "en6", "B6", "A7")).snapshot());
        assertThat(t.sourceConflicts()).singleElement().satisfies(c -> assertThat(c.port()).isEqualTo(PortRef.parse("a:en6")));
        Finding planned = Planner.plan(t, ab, Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST).findings().stream()
                .filter(f -> f.code() == Code.SOURCES_DISAGREE).findFirst().orElseThrow();

        List<Finding> f = Checker.check(t, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error not-a-cable", "warning sources-disagree");
        assertThat(f.get(1)).isEqualTo(planned);
        assertThat(f.get(1).ranks()).containsExactly(0, 1);
        assertThat(f.get(1).ports()).containsExactly(PortRef.parse("a:en6"), PortRef.parse("b:en7"), PortRef.parse("b:en6"));
        assertThat(f.get(1).message()).contains("a:en6: its Thunderbolt pairing names b:en7 but its probe heard b:en6");
        // naming the paired far end alone (b:en7, by its netdev) is enough: its cable is out for the same reason
        assertThat(codes(Checker.check(t, ab, cells("-|rdma_en7", "en7|-"), Mode.RING, MlxVersion.NEWEST)))
                .contains("warning sources-disagree");
        // the cable the forged hello did not touch is clean, though its b:en6 is the far end the probe heard
        assertThat(Checker.check(t, ab, cells("-|rdma_en7", "rdma_en6|-"), Mode.MESH, MlxVersion.NEWEST)).isEmpty();
    }

    @Test
    void aPortWithoutRdmaCannotCarryARail() {
        Topology t = Topology.of(new Cluster().plainCable("a:eth1", "b:eth1").snapshot());
        List<Finding> f = Checker.check(t, ab, cells("-|eth1", "eth1|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error netdev-name", "error netdev-name");
        assertThat(f.get(0).message()).contains("has no RDMA device");
    }


    @Test
    void namesFromTheFileAreShownEscapedAndCut() {
        String colour = "rdma_\u001b[31mred\nline";
        String huge = "x".repeat(1_000_000);
        List<List<List<String>>> file = List.of(
                List.of(List.of(huge), List.of(colour)),
                List.of(List.of("rdma_en7", "rdma_en6"), List.of()));

        List<Finding> f = Checker.check(crossed, ab, file, Mode.MESH, MlxVersion.NEWEST);

        assertThat(f).extracting(Finding::message)
                .anySatisfy(m -> assertThat(m).contains("names \"rdma_\\x1b[31mred\\nline\", which is no RDMA device"))
                .anySatisfy(m -> assertThat(m).contains("x".repeat(64) + "…(999936 more)"))
                .allSatisfy(m -> assertThat(m).doesNotContain("\n", "\u001b").hasSizeLessThan(400));
    }

    @Test
    void anUnknownDeviceIsNamedWithWhatTheNodeHas() {
        List<Finding> f = Checker.check(crossed, ab, cells("-|rdma_en9", "rdma_en7|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error unknown-device");
        assertThat(f.get(0).message()).contains("\"rdma_en9\"", "rdma_en6, rdma_en7");
    }

    @Test
    void devicesOnDifferentNodesPairsAreNotACable() {
        Topology t = Topology.of(new Cluster().cable("a:p1", "b:p1").cable("a:p2", "c:p2").cable("b:p3", "c:p3").snapshot());
        // rank a uses p2 (cabled to c) to reach b
        List<Finding> f = Checker.check(t, List.of("a", "b", "c"),
                cells("-|rdma_p2|rdma_p2", "rdma_p1|-|rdma_p3", "rdma_p2|rdma_p3|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error not-a-cable");
        assertThat(f.get(0).message()).contains("a:p2 is cabled to c:p2, not to b");
    }

    @Test
    void aDownEndIsLinkDown() {
        Topology t = Topology.of(new Cluster().cable("a:p1", "b:p1").state("b:p1", PortState.DOWN).snapshot());
        List<Finding> f = Checker.check(t, ab, cells("-|rdma_p1", "rdma_p1|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error link-down");
        assertThat(f.get(0).message()).contains("b:p1 is down");
    }

    @Test
    void aWireWithoutPartnerIsUnpaired() {
        List<Finding> f = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(f)).contains("error unpaired-wire");
    }

    @Test
    void aMeshOpensOnlyWireZeroSoLaterWiresOnlyWarn() {
        // lib/jaccl/jaccl.cpp Config::get_mesh_connectivity (v0.32.1): the mesh takes devices_[rank_][dst][0]
        // and no other wire, so a bad name or a crossed rail on wire 1 cannot stop it
        List<List<List<String>>> wireOneBad = cells("-|rdma_en6+en7", "rdma_en7+rdma_en9|-");
        List<Finding> mesh = Checker.check(crossed, ab, wireOneBad, Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(mesh)).containsExactlyInAnyOrder("warning netdev-name", "warning unknown-device", "warning extra-wires-unused");
        assertThat(mesh).filteredOn(x -> x.code() == Code.NETDEV_NAME).singleElement()
                .satisfies(x -> assertThat(x.message()).startsWith("wire 1 is unused by the mesh").contains("write \"rdma_en7\""));
        // and the mesh's own warning does not send the user to a ring whose wire 1 would fail
        assertThat(mesh).filteredOn(x -> x.code() == Code.EXTRA_WIRES_UNUSED).singleElement()
                .satisfies(x -> assertThat(x.message()).contains("wire 1 would fail").doesNotContain("MLX_JACCL_RING=1 to run"));
        List<Finding> crossedWireOne = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en7|-"), Mode.MESH,
                MlxVersion.NEWEST);
        assertThat(codes(crossedWireOne)).containsExactlyInAnyOrder("warning mismatched-rail", "warning extra-wires-unused");
        List<Finding> unpaired = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(unpaired)).contains("warning unpaired-wire").noneMatch(c -> c.startsWith("error"));
        // auto: jaccl alone runs the mesh, but an MLX_JACCL_RING set outside the file (lib/jaccl/jaccl.cpp
        // Config::from_env reads it from the environment) makes it a ring of both wires: warnings, as for too-many-wires
        assertThat(codes(Checker.check(crossed, ab, wireOneBad, Mode.AUTO, MlxVersion.NEWEST)))
                .contains("warning netdev-name", "warning unknown-device").noneMatch(c -> c.startsWith("error"));
        // the ring uses every wire: the same names are errors there, and so is wire 0 in a mesh
        assertThat(codes(Checker.check(crossed, ab, wireOneBad, Mode.RING, MlxVersion.NEWEST)))
                .contains("error netdev-name", "error unknown-device");
        assertThat(codes(Checker.check(crossed, ab, cells("-|en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.MESH, MlxVersion.NEWEST)))
                .contains("error netdev-name");
    }

    @Test
    void shapeProblemsStopTheCheck() {
        assertThat(codes(Checker.check(crossed, ab, cells("-|rdma_en6"), Mode.AUTO, MlxVersion.NEWEST))).containsExactly("error not-square");
        assertThat(codes(Checker.check(crossed, ab, cells("-|rdma_en6", "rdma_en7"), Mode.AUTO, MlxVersion.NEWEST))).containsExactly("error not-square");
    }

    @Test
    void emptyNamesAndTheDiagonal() {
        List<Finding> f = Checker.check(crossed, ab, cells("rdma_en6|", "rdma_en7|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).contains("error diagonal-not-empty", "error empty-name");
    }

    @Test
    void anEmptyNameOnTheDiagonalIsAWarningWhereJacclRunsTheRing() {
        // v0.32.1 lib/jaccl/jaccl.cpp: Config::is_valid_ring compares only each rank's left and right cells and
        // Config::get_ring_connectivity opens only those, so devices[0][0] = "" never stops the ring;
        // Config::is_valid_mesh fails on it, so init (no MLX_JACCL_RING) skips the mesh and runs the ring
        List<List<List<String>>> ownCellEmpty = cells("|rdma_en6", "rdma_en7|-");
        List<Finding> auto = Checker.check(crossed, ab, ownCellEmpty, Mode.AUTO, MlxVersion.NEWEST);
        assertThat(codes(auto)).containsExactly("warning diagonal-not-empty");
        assertThat(auto.get(0).message()).contains("names \"\";", "otherwise a valid mesh", "Config::is_valid_mesh",
                "runs it as a ring of 1 wire per direction", "write null");
        List<Finding> ring = Checker.check(crossed, ab, ownCellEmpty, Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(ring)).containsExactly("warning diagonal-not-empty");
        // the mesh refuses the file: an error, and the empty name is printed as ""
        List<Finding> mesh = Checker.check(crossed, ab, ownCellEmpty, Mode.MESH, MlxVersion.NEWEST);
        assertThat(mesh).filteredOn(x -> x.code() == Code.DIAGONAL_NOT_EMPTY).singleElement().satisfies(x -> {
            assertThat(x.isError()).isTrue();
            assertThat(x.message()).contains("devices[0][0] of rank 0 (a) names \"\"; a rank has no link to itself");
        });
        // before 0.31.2 DeviceFile::is_valid_ring wants every other cell empty: neither group, still an error
        assertThat(codes(Checker.check(crossed, ab, ownCellEmpty, Mode.AUTO, MlxVersion.RING))).contains("error diagonal-not-empty");
    }

    @Test
    void aRingForcedFromOutsideTheFileIsJudgedAlikeForWiresAndNames() {
        // lib/jaccl/jaccl.cpp init(const Config&, bool): with MLX_JACCL_RING set and Config::is_valid_ring true the ring
        // runs first; RingGroup::RingGroup (ring.cpp) then throws "Up to 4 per direction" on five wires, and
        // create_connections (rdma.cpp) throws on a name it cannot find. Without the variable the mesh runs.
        Cluster c = new Cluster();
        for (int k = 0; k < 5; k++) {
            c.cable("a:p" + k, "b:p" + k);
        }
        Topology five = Topology.of(c.snapshot());
        String wires = "rdma_p0+rdma_p1+rdma_p2+rdma_p3+rdma_p4";
        List<Finding> tooMany = Checker.check(five, ab, cells("-|" + wires, wires + "|-"), Mode.AUTO, MlxVersion.NEWEST);
        List<Finding> netdev = Checker.check(five, ab, cells("-|rdma_p0+p1", "rdma_p0+rdma_p1|-"), Mode.AUTO, MlxVersion.NEWEST);
        Finding wiresFinding = tooMany.stream().filter(x -> x.code() == Code.TOO_MANY_WIRES).findFirst().orElseThrow();
        Finding nameFinding = netdev.stream().filter(x -> x.code() == Code.NETDEV_NAME).findFirst().orElseThrow();
        assertThat(wiresFinding.severity()).isEqualTo(nameFinding.severity()).isEqualTo(io.railmap.matrix.finding.Severity.WARNING);
        assertThat(List.of(wiresFinding.message(), nameFinding.message()))
                .allSatisfy(m -> assertThat(m).startsWith("jaccl runs the mesh, but with MLX_JACCL_RING set outside the file"));
        assertThat(tooMany).noneMatch(Finding::isError);
        assertThat(netdev).noneMatch(Finding::isError);
        // a file that is no valid ring (wire counts differ) cannot be forced into one: infos
        List<Finding> unequal = Checker.check(five, ab, cells("-|rdma_p0+p1", "rdma_p0|-"), Mode.AUTO, MlxVersion.NEWEST);
        assertThat(unequal).filteredOn(x -> x.code() == Code.NETDEV_NAME || x.code() == Code.UNPAIRED_WIRE)
                .isNotEmpty().allSatisfy(x -> assertThat(x.severity()).isEqualTo(io.railmap.matrix.finding.Severity.INFO));
        // --mode ring checks the forced ring itself: errors
        assertThat(codes(Checker.check(five, ab, cells("-|" + wires, wires + "|-"), Mode.RING, MlxVersion.NEWEST)))
                .contains("error too-many-wires");
    }

    @Test
    void aMeshNeedsEveryPair() {
        Topology t = Topology.of(new Cluster().cable("a:p1", "b:p1").cable("b:p2", "c:p2").snapshot());
        List<Finding> f = Checker.check(t, List.of("a", "b", "c"), cells("-|rdma_p1|-", "rdma_p1|-|rdma_p2", "-|rdma_p2|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("error missing-link");
        assertThat(f.get(0).message()).contains("rank 0 (a) and rank 2 (c)", "no cable joins them");
    }

    @Test
    void aMeshOfNineIsTooLarge() {
        Cluster c = new Cluster();
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ranks.add("n" + i);
            for (int j = 0; j < i; j++) {
                c.cable("n" + i + ":to" + j, "n" + j + ":to" + i);
            }
        }
        List<List<List<String>>> cells = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < 9; j++) {
                row.add(i == j ? List.of() : List.of("rdma_to" + j));
            }
            cells.add(row);
        }
        assertThat(codes(Checker.check(Topology.of(c.snapshot()), ranks, cells, Mode.MESH, MlxVersion.NEWEST))).containsExactly("error mesh-too-large");
    }

    @Test
    void extraWiresInAMeshAreUnusedAndSayHowToUseThem() {
        List<Finding> f = Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.MESH, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactly("warning extra-wires-unused");
        assertThat(f.get(0).message()).contains("MLX_JACCL_RING");
        // as jaccl decides without MLX_JACCL_RING: the file is a valid mesh, so jaccl runs the mesh on wire 0
        assertThat(codes(Checker.check(crossed, ab, cells("-|rdma_en6+rdma_en7", "rdma_en7+rdma_en6|-"), Mode.AUTO, MlxVersion.NEWEST)))
                .containsExactly("warning extra-wires-unused");
    }

    @Test
    void ringRules() {
        Cluster c = new Cluster().cable("a:p1", "b:p1").cable("a:p2", "b:p2").cable("b:p3", "c:p3").cable("c:p4", "a:p4")
                .cable("b:p5", "c:p5");
        Topology t = Topology.of(c.snapshot());
        List<String> abc = List.of("a", "b", "c");
        List<Finding> unequal = Checker.check(t, abc,
                cells("-|rdma_p1+rdma_p2|rdma_p4", "rdma_p1+rdma_p2|-|rdma_p3+rdma_p5", "rdma_p4|rdma_p3+rdma_p5|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(unequal)).containsOnly("error unequal-ring-wires");
        assertThat(unequal).allSatisfy(x -> assertThat(x.ranks()).containsExactly(0, 2));

        List<Finding> notACycle = Checker.check(t, abc, cells("-|rdma_p1|-", "rdma_p1|-|rdma_p3", "-|rdma_p3|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(notACycle)).containsExactly("error ring-not-a-cycle");
    }

    @Test
    void moreThanFourWiresInARing() {
        Cluster c = new Cluster();
        for (int k = 0; k < 5; k++) {
            c.cable("a:p" + k, "b:p" + k);
        }
        String five = "rdma_p0+rdma_p1+rdma_p2+rdma_p3+rdma_p4";
        List<Finding> f = Checker.check(Topology.of(c.snapshot()), ab, cells("-|" + five, five + "|-"), Mode.RING, MlxVersion.NEWEST);
        assertThat(codes(f)).containsOnly("error too-many-wires");
    }

    @Test
    void inAutoModeAFileValidAsNeitherGetsBothModesFindings() {
        Topology t = Topology.of(new Cluster().cable("a:p1", "b:p1").cable("b:p2", "c:p2").snapshot());
        List<Finding> f = Checker.check(t, List.of("a", "b", "c"), cells("-|rdma_p1|-", "rdma_p1|-|rdma_p2", "-|rdma_p2|-"), Mode.AUTO, MlxVersion.NEWEST);
        assertThat(codes(f)).containsExactlyInAnyOrder("error missing-link", "error ring-not-a-cycle");
        assertThat(f).allSatisfy(x -> assertThat(x.message()).startsWith("as a "));
    }
}
