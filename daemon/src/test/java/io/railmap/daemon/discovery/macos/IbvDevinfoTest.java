package io.railmap.daemon.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.daemon.discovery.DiscoveryException;
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

    @Test
    void oddStatesAndOutputWithoutDevicesAreRejectedNamingTheLine() {
        assertThatThrownBy(() -> parse("hca_id: rdma_en2\n\tport: 1\n\t\tstate: PORT_ACTIVE (1)\n"))
                .isInstanceOf(DiscoveryException.class).hasMessageContaining("line 3").hasMessageContaining("is DOWN");
        assertThatThrownBy(() -> parse("hca_id: rdma_en2\n\tstate: PORT_ACTIVE (4)\n"))
                .hasMessageContaining("not inside a port");
        assertThatThrownBy(() -> parse("No IB devices found\n")).hasMessageContaining("no \"hca_id:\" line");
    }
}
