package io.railmap.daemon.cluster.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.testing.FreePorts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.TCP_NIO2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three channels with the daemon's stack on loopback, a the seed of b and c: b forgets every
 * member's address and every host it learned, as a member of one partition knows nothing of the
 * other's members after a merge, and must still reach c. Heartbeat timeout and merge rounds are
 * long, so that neither a suspicion nor a merge round's INFO (which carries the sender's address)
 * happens meanwhile: the seed's answer is the only way b can learn c's address.
 */
class AddressAnsweringPingTest {
    private static final String CLUSTER = "answering-test";

    private final List<JChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        channels.forEach(JChannel::close);
    }

    private JChannel member(String node, int port, int seedPort) throws Exception {
        JChannel channel = new JChannel(StackChannels.quietProtocols(CLUSTER, node, port, seedPort));
        channels.add(channel);
        channel.name(node);
        channel.connect(CLUSTER);
        return channel;
    }

    @Test
    void aMemberThatLostAnotherMembersAddressLearnsItFromTheSeed() throws Exception {
        int seedPort = FreePorts.clusterPort();
        JChannel a = member("a", seedPort, seedPort);
        JChannel b = member("b", FreePorts.clusterPort(), seedPort);
        JChannel c = member("c", FreePorts.clusterPort(), seedPort);
        await("one view of three").atMost(Duration.ofSeconds(10)).until(() -> c.getView().size() == 3 && b.getView().size() == 3);
        List<String> toC = new CopyOnWriteArrayList<>();
        c.setReceiver(new Receiver() {
            @Override
            public void receive(Message msg) {
                toC.add(new String(msg.getArray(), msg.getOffset(), msg.getLength(), StandardCharsets.UTF_8));
            }
        });
        Object cPhysical = c.down(new Event(Event.GET_PHYSICAL_ADDRESS, c.getAddress()));

        b.getProtocolStack().<TCP_NIO2>findProtocol(TCP_NIO2.class).clearLogicalAddressCache();
        b.getProtocolStack().<TCPPING>findProtocol(TCPPING.class).clearDynamicHostList();
        assertThat(b.down(new Event(Event.GET_PHYSICAL_ADDRESS, c.getAddress()))).as("b forgot c's address").isNull();
        assertThat(b.getProtocolStack().<TCPPING>findProtocol(TCPPING.class).getDynamicHostList()).isEqualTo("[]");

        b.send(new BytesMessage(c.getAddress(), "from b".getBytes(StandardCharsets.UTF_8)));

        await("b has c's address again, from a, and its message arrives").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(b.down(new Event(Event.GET_PHYSICAL_ADDRESS, c.getAddress()))).isEqualTo(cPhysical);
            assertThat(toC).containsExactly("from b");
        });
        assertThat(a.getView().size()).as("nobody was suspected meanwhile").isEqualTo(3);
    }
}
