package io.railmap.discovery.infiniband;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** smpquery's NodeInfo and NodeDesc answers, real ones ({@code fixtures/infiniband}, provenance in the README there) and broken ones. */
class SmpQueryTest {
    private static final String SOURCE = "smpquery -C mlx5_0 -P 1 -D nodeinfo 0,1";

    @Test
    void aRealSwitchGivesItsTypeGuidAndTheSwitchPortTheCableEnters() {
        SmpQuery.NodeInfo info = SmpQuery.nodeInfo(SOURCE, fixture("infiniband/smpquery_nodeinfo_switch_mellanox.txt"));

        assertThat(info).isEqualTo(new SmpQuery.NodeInfo("Switch", "0xe41d2d03004bef70", 17));
        assertThat(info.isSwitch()).isTrue();
    }

    @Test
    void aChannelAdapterIsNoSwitch() {
        SmpQuery.NodeInfo info = SmpQuery.nodeInfo(SOURCE, fixture("infiniband/smpquery_nodeinfo_ca_ibsim.txt"));

        assertThat(info).isEqualTo(new SmpQuery.NodeInfo("Channel Adapter", "0x0000000000100003", 1));
        assertThat(info.isSwitch()).isFalse();
        assertThat(SmpQuery.nodeInfo(SOURCE, fixture("infiniband/smpquery_nodeinfo_switch_ibsim.txt")))
                .isEqualTo(new SmpQuery.NodeInfo("Switch", "0x0000000000200001", 0));
    }

    @Test
    void aRealConnectX3HcaIsNoSwitchAndNamesItsNodeGuidNotItsPortGuid() {
        // a back-to-back cable's far end: the HCA's node GUID and the port the cable enters (mlx4_0 port 1)
        SmpQuery.NodeInfo info = SmpQuery.nodeInfo(SOURCE, fixture("infiniband/smpquery_nodeinfo_ca_connectx3.txt"));

        assertThat(info).isEqualTo(new SmpQuery.NodeInfo("Channel Adapter", "0x0002c90300336fe0", 1));
        assertThat(info.isSwitch()).isFalse();
        // LocalPort is NodeInfo's LocalPortNum (rdma-core v64.0 libibmad/fields.c, bits 288-295 of NodeInfo), which
        // libibnetdisc/ibnetdisc.c recv_node_info takes as the far node's port of the link the query crossed
        assertThat(info.isChannelAdapter()).isTrue();
        assertThat(SmpQuery.nodeInfo(SOURCE, fixture("infiniband/smpquery_nodeinfo_switch_mellanox.txt")).isChannelAdapter()).isFalse();
    }

    @Test
    void guidsAreLowerCaseAndPaddedTo16HexDigits() {
        assertThat(SmpQuery.nodeInfo(SOURCE, "NodeType:....Switch\nGuid:....0x2C9000100D051\nLocalPort:....36\n").guid())
                .isEqualTo("0x0002c9000100d051");
    }

    @Test
    void theNodeDescriptionFollowsTheDotsWhateverItsLength() {
        assertThat(SmpQuery.nodeDescription(SOURCE, fixture("infiniband/smpquery_nodedesc_hca.txt"))).isEqualTo("b1nstcx02 HCA-1");
        String longName = "MF0;leaf-rail-3-row-7:MQM9700/U1";
        assertThat(longName).hasSizeGreaterThanOrEqualTo(32);
        assertThat(SmpQuery.nodeDescription(SOURCE, "Node Description:." + longName + "\n")).isEqualTo(longName);
        assertThat(SmpQuery.nodeDescription(SOURCE, "Node Description:" + ".".repeat(32) + "\n")).isEmpty();
    }

    @Test
    void aMissingOrMalformedFieldIsAnErrorNamingTheCommandAndTheField() {
        String real = fixture("infiniband/smpquery_nodeinfo_switch_mellanox.txt");
        assertThatThrownBy(() -> SmpQuery.nodeInfo(SOURCE, real.replace("LocalPort:", "Local:")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(SOURCE + ": no LocalPort field");
        assertThatThrownBy(() -> SmpQuery.nodeInfo(SOURCE, real.replace("0xe41d2d03004bef70", "0xe41d2d03004bef70ff")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(SOURCE + ": Guid \"0xe41d2d03004bef70ff\" is not 0x and up to 16 hex digits");
        assertThatThrownBy(() -> SmpQuery.nodeInfo(SOURCE, real.replace("......17", "......999")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(SOURCE + ": LocalPort \"999\" is not a port number 0-255");
        assertThatThrownBy(() -> SmpQuery.nodeInfo(SOURCE, "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(SOURCE + ": no NodeType field");
        assertThatThrownBy(() -> SmpQuery.nodeDescription(SOURCE, "ibwarn: node desc query failed\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(SOURCE + ": no \"Node Description:\" line");
    }

    @Test
    void onlyTheFirstLinesAreRead() {
        String flood = "Padding:....x\n".repeat(SmpQuery.MAX_LINES) + "NodeType:....Switch\nGuid:....0x1\nLocalPort:....1\n";
        assertThatThrownBy(() -> SmpQuery.nodeInfo(SOURCE, flood)).hasMessage(SOURCE + ": no NodeType field");
    }

    static String fixture(String path) {
        try (InputStream in = SmpQueryTest.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
