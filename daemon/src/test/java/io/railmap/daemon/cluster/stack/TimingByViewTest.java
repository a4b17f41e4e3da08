package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.testing.FreePorts;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** The daemon's real stack, connected alone on loopback, handed views of several sizes from above FD_ALL3. */
class TimingByViewTest {
    @Test
    void aViewAboveThirtyTwoMembersStretchesHeartbeatsMergeRoundsAndRetransmissionAndASmallOneRestoresThem() throws Exception {
        ClusterConfig config = new ClusterConfig("timing-test", "a", InetAddress.getLoopbackAddress(), FreePorts.clusterPort(), List.of(),
                Optional.empty(), ClusterTiming.DEFAULTS);
        try (JChannel channel = new JChannel(ClusterStack.protocols(config, w -> { }))) {
            channel.connect("timing-test");
            TimingByView scaling = channel.getProtocolStack().findProtocol(TimingByView.class);
            FD_ALL3 heartbeats = channel.getProtocolStack().findProtocol(FD_ALL3.class);
            MERGE3 merge = channel.getProtocolStack().findProtocol(MERGE3.class);
            NAKACK2 multicast = channel.getProtocolStack().findProtocol(NAKACK2.class);
            UNICAST3 unicast = channel.getProtocolStack().findProtocol(UNICAST3.class);
            FD_SOCK2 connections = channel.getProtocolStack().findProtocol(FD_SOCK2.class);
            assertThat(connections.getSuspectMsgInterval()).isEqualTo(5_000);
            STABLE stability = channel.getProtocolStack().findProtocol(STABLE.class);
            assertThat(stability.getDesiredAverageGossip()).isEqualTo(20_000);
            assertThat(heartbeats.getInterval()).isEqualTo(2_000);
            assertThat(multicast.getXmitInterval()).isEqualTo(250);

            scaling.down(new Event(Event.VIEW_CHANGE, view(channel.getAddress(), 2, 64)));
            assertThat(heartbeats.getInterval()).isEqualTo(4_000);
            assertThat(heartbeats.getTimeout()).isEqualTo(12_000);
            assertThat(merge.getMinInterval()).isEqualTo(4_000);
            assertThat(merge.getMaxInterval()).isEqualTo(8_000);
            assertThat(merge.getCheckInterval()).isEqualTo(12_800);
            assertThat(heartbeats.isHeartbeatSenderRunning()).as("FD_ALL3 started again with the view").isTrue();
            assertThat(multicast.getXmitInterval()).isEqualTo(500);
            assertThat(multicast.isXmitTaskRunning()).as("NAKACK2's retransmit task started again").isTrue();
            assertThat(unicast.getXmitInterval()).isEqualTo(500);
            assertThat(unicast.isXmitTaskRunning()).as("UNICAST3's retransmit task started again").isTrue();
            assertThat(connections.getSuspectMsgInterval()).as("suspicions sent again less often").isEqualTo(10_000);
            assertThat(stability.getDesiredAverageGossip()).as("stability rounds less often").isEqualTo(40_000);
            assertThat(scaling.applied()).isEqualTo(ClusterTiming.DEFAULTS.forView(64));

            scaling.down(new Event(Event.VIEW_CHANGE, view(channel.getAddress(), 3, 256)));
            assertThat(heartbeats.getInterval()).isEqualTo(16_000);
            assertThat(merge.getMaxInterval()).isEqualTo(32_000);
            assertThat(multicast.getXmitInterval()).isEqualTo(2_000);
            assertThat(unicast.getXmitInterval()).isEqualTo(2_000);
            assertThat(connections.getSuspectMsgInterval()).isEqualTo(40_000);
            assertThat(stability.getDesiredAverageGossip()).isEqualTo(160_000);

            scaling.down(new Event(Event.VIEW_CHANGE, view(channel.getAddress(), 4, 8)));
            assertThat(heartbeats.getInterval()).isEqualTo(2_000);
            assertThat(heartbeats.getTimeout()).isEqualTo(6_000);
            assertThat(merge.getMinInterval()).isEqualTo(2_000);
            assertThat(merge.getMaxInterval()).isEqualTo(4_000);
            assertThat(merge.getCheckInterval()).isEqualTo(6_400);
            assertThat(multicast.getXmitInterval()).isEqualTo(250);
            assertThat(unicast.getXmitInterval()).isEqualTo(250);
            assertThat(multicast.isXmitTaskRunning()).isTrue();
            assertThat(unicast.isXmitTaskRunning()).isTrue();
            assertThat(connections.getSuspectMsgInterval()).isEqualTo(5_000);
            assertThat(stability.getDesiredAverageGossip()).isEqualTo(20_000);
            assertThat(scaling.applied()).isSameAs(ClusterTiming.DEFAULTS);
        }
    }

    /** @return a view of {@code size} members, this one first, the others made up */
    private static View view(Address self, long id, int size) {
        List<Address> members = new ArrayList<>(List.of(self));
        while (members.size() < size) {
            members.add(UUID.randomUUID());
        }
        return View.create(self, id, members.toArray(new Address[0]));
    }
}
