package io.railmap.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.IbvDevinfo;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import org.junit.jupiter.api.Test;

class IbvDevinfoTest {

    private static IbvDevinfo parse(String text) throws DiscoveryException {
        return IbvDevinfo.parse("ibv_devinfo.txt", text);
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

    /**
     * ibv_devinfo_v_limits_rdma_en2_pd_notes.txt: a Mac's ibv_devinfo -v, abbreviated and reflowed by its
     * author (the transport on hca_id's line): a Thunderbolt device's max_qp 11, max_pd 11, max_mr 100.
     */
    @Test
    void aMacsVerboseOutputGivesTheDevicesLimits() throws Exception {
        String text = Fixtures.read("macos/ibv_devinfo_v_limits_rdma_en2_pd_notes.txt").replace("```text\n", "").replace("```\n", "");

        IbvDevinfo devices = parse(text);

        assertThat(devices.devices().keySet()).containsExactly("rdma_en2");
        assertThat(devices.limits("rdma_en2")).isEqualTo(RdmaLimits.of(11, 11, 100, null));
        assertThat(devices.limitNotes("rdma_en2")).isEmpty();
    }

    /** ibv_devinfo_v_irdma_e810_3fs_issue192.txt: rdma-core's full -v output on Linux; max_qp_wr and the like are not limits. */
    @Test
    void linuxVerboseOutputGivesTheDevicesLimitsAndNothingElse() throws Exception {
        IbvDevinfo devices = parse(Fixtures.read("linux/ibv_devinfo_v_irdma_e810_3fs_issue192.txt"));

        assertThat(devices.limits("irdma0")).isEqualTo(RdmaLimits.of(4092, 262141, 4194301, 1048574));
        assertThat(devices.problem("irdma0")).isEmpty();
    }

    /** A bad limit line costs that limit, noted with its line; a limit line inside a port is no device limit; plain output has none. */
    @Test
    void aBadLimitCostsThatLimitOnly() throws Exception {
        IbvDevinfo devices = parse("hca_id:\trdma_en2\n\tmax_qp:\t\t\t\t-1\n\tmax_pd:\t\t\t\t6\n\tmax_mr:\t\t\t\t99999999999\n"
                + "\tmax_pd:\t\t\t\t7\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n\t\t\tmax_cqe:\t5\n"
                + "hca_id:\trdma_en3\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_DOWN (1)\n");

        assertThat(devices.limits("rdma_en2")).isEqualTo(RdmaLimits.of(null, 6, null, null));
        assertThat(devices.limitNotes("rdma_en2")).containsExactly(
                "ibv_devinfo.txt: line 2 \"max_qp:\\t\\t\\t\\t-1\": not a count from 0 to 2147483647; max_qp left out",
                "ibv_devinfo.txt: line 4 \"max_mr:\\t\\t\\t\\t99999999999\": not a count from 0 to 2147483647; max_mr left out",
                "ibv_devinfo.txt: line 5 \"max_pd:\\t\\t\\t\\t7\": a second max_pd line; max_pd left out");
        assertThat(devices.state("rdma_en2", 1)).contains(PortState.ACTIVE);
        assertThat(devices.limits("rdma_en3")).isEmpty();
    }
}
