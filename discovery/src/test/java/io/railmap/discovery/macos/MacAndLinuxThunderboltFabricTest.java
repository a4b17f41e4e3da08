package io.railmap.discovery.macos;

import static io.railmap.discovery.macos.Fixtures.capture;
import static io.railmap.discovery.macos.Fixtures.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.linux.SysfsPortSource;
import io.railmap.discovery.linux.SysfsTree;
import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Mac and a Linux host on one Thunderbolt cable give one matrix, the cable confirmed by the domain
 * UUIDs of both ends with no IP path and no probe. The Mac is the real MacBook Pro capture
 * ({@code macos/system_profiler_thunderbolt_m5max_macbookpro.json}: bus 0, receptacle 1, 80 Gb/s,
 * peer domain {@code 28CA4C30-…}); the Linux host is {@code linux/thunderbolt_xdomain_mac_peer.tree},
 * which plays that peer: its host router's UUID is the Mac's peer domain and its XDomain's
 * {@code unique_id} the Mac bus's domain. That a Linux XDomain shows a Mac's {@code domain_uuid_key}
 * and the Mac shows the Linux host router's UUID is an inference (fixtures/README.md). Assumed: the
 * Mac's {@code rdma_en1} (the capture has no {@code ibv_devinfo}).
 */
class MacAndLinuxThunderboltFabricTest {
    @TempDir
    Path dir;

    @Test
    void aMacAndALinuxHostOnOneCableGiveOneMatrixConfirmedByTheirDomainUuids() throws Exception {
        Path mac = capture(dir.resolve("mbp"), read("macos/system_profiler_thunderbolt_m5max_macbookpro.json"),
                read("macos/networksetup_m5max_macbookpro.txt"), null, null);
        Discovery mbp = new ThunderboltPortSource("mbp", new CaptureDirectoryRunner(mac), InterfaceSelection.rdmaOnly(),
                AssumedRdma.parse("en1")).discover();
        Discovery strix = new SysfsPortSource("strix", new SysfsTree(dir.resolve("strix")).load(
                SysfsTree.fixture("thunderbolt_xdomain_mac_peer.tree")).root(), InterfaceSelection.rdmaOnly()).discover();
        Snapshot snapshot = new Snapshot(List.of(record(mbp), record(strix)));

        Topology topology = Topology.of(snapshot);
        Plan plan = Planner.plan(topology, List.of("mbp", "strix"), Order.GIVEN, RailOptions.DEFAULTS, MlxVersion.NEWEST);

        assertThat(topology.cables()).containsExactly(new Cable(PortRef.parse("mbp:en1"), PortRef.parse("strix:thunderbolt0")));
        assertThat(topology.unconfirmed()).isEmpty();
        assertThat(plan.matrix().wires(0, 1)).isEqualTo(1);
        assertThat(plan.matrix().device(0, 1, 0)).isEqualTo("rdma_en1");
        assertThat(plan.matrix().device(1, 0, 0)).isEqualTo("usb4_rdma4");
    }

    private static NodeRecord record(Discovery found) {
        return new NodeRecord(found.node(), 1, found.ports().stream().map(LocalPort::port).toList());
    }
}
