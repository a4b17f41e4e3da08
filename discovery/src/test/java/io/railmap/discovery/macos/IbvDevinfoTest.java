package io.railmap.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.matrix.model.PortState;
import org.junit.jupiter.api.Test;

class IbvDevinfoTest {

    private static IbvDevinfo parse(String text) throws DiscoveryException {
        return IbvDevinfo.parse(new CommandOutput("ibv_devinfo.txt", text));
    }

    /** ibv_devinfo_tn3205.txt, the plain ibv_devinfo block of three M4 Pro Mac minis' ports. */
    @Test
    void tn3205ListsThreeActiveThunderboltDevices() throws Exception {
        String block = Fixtures.section(Fixtures.read("macos/ibv_devinfo_tn3205.txt"), "% ibv_devinfo", "## ");

        IbvDevinfo devices = parse(block);

        assertThat(devices.devices().keySet()).containsExactlyInAnyOrder("rdma_en2", "rdma_en3", "rdma_en4");
        assertThat(devices.state("rdma_en4", 1)).contains(PortState.ACTIVE);
        assertThat(devices.state("rdma_en4", 2)).isEmpty();
        assertThat(devices.lists("rdma_en5")).isFalse();
    }

    /** The complete, tab-indented ibv_devinfo of a ConnectX-4 Lx host, with one port down. */
    @Test
    void fullOutputGivesEachPortsState() throws Exception {
        String text = Fixtures.section(
                Fixtures.read("linux/connectx4lx_ibdev2netdev_show_gids_ibv_devices_ibv_devinfo.txt"), "# ibv_devinfo", "# ");

        IbvDevinfo devices = parse(text);

        assertThat(devices.devices()).hasSize(4);
        assertThat(devices.state("mlx5_0", 1)).contains(PortState.ACTIVE);
        assertThat(devices.state("mlx5_1", 1)).contains(PortState.DOWN);
    }

    /** An odd state costs its device only, and names the line; output that is no ibv_devinfo output is rejected. */
    @Test
    void oddStatesMarkTheirDeviceAndOutputWithoutDevicesIsRejected() throws Exception {
        IbvDevinfo devices = parse("hca_id: rdma_en2\n\tport: 1\n\t\tstate: PORT_ACTIVE (1)\nhca_id: rdma_en3\n\tstate: PORT_ACTIVE (4)\n"
                + "hca_id: rdma_en4\n\tport: 1\n\t\tstate: PORT_ACTIVE (4)\n");

        assertThat(devices.problem("rdma_en2")).hasValueSatisfying(p -> assertThat(p)
                .startsWith("ibv_devinfo.txt: line 3 \"state: PORT_ACTIVE (1)\"").contains("is DOWN"));
        assertThat(devices.problem("rdma_en3")).hasValueSatisfying(p -> assertThat(p).contains("not inside a port"));
        assertThat(devices.problem("rdma_en4")).isEmpty();
        assertThat(devices.state("rdma_en4", 1)).contains(PortState.ACTIVE);
        assertThatThrownBy(() -> parse("No IB devices found\n")).hasMessageContaining("no \"hca_id:\" line");
        assertThatThrownBy(() -> parse("\tport: 1\nhca_id: rdma_en2\n")).isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("line 1").hasMessageContaining("before any hca_id");
    }
}
