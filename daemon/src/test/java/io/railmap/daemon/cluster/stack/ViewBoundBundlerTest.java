package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.testing.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.protocols.TP;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The daemon's bundler holds a message list for at most the view's members and
 * {@value ViewBoundBundler#MAX_OTHERS} other destinations: two JGroups channels with the daemon's
 * stack on loopback (lab timing, no key); a sends to b and to twice that many addresses outside the
 * view (ports nobody listens on), and after its next send it holds lists for a and b and at most
 * that many others, where JGroups' own TransferQueueBundler keeps one for every destination it ever had.
 */
class ViewBoundBundlerTest {
    private static final String CLUSTER = "bundler-test";
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final List<JChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        channels.forEach(JChannel::close);
    }

    private JChannel member(String node) throws Exception {
        List<Seed> seeds = ports.values().stream().map(p -> new Seed("127.0.0.1", p)).toList();
        JChannel channel = StackChannels.connect(CLUSTER, node, ports.get(node), seeds, Optional.empty());
        channels.add(channel);
        return channel;
    }

    private static ViewBoundBundler bundler(JChannel channel) {
        return (ViewBoundBundler) ((TP) channel.getProtocolStack().getTransport()).getBundler();
    }

    @Test
    void listsOfDestinationsOutsideTheViewStayBounded() throws Exception {
        for (String node : List.of("a", "b")) {
            ports.put(node, FreePorts.clusterPort());
        }
        JChannel a = member("a");
        JChannel b = member("b");
        await("a view of two").atMost(BOUND).until(() -> a.getView().size() == 2);

        int outside = 2 * ViewBoundBundler.MAX_OTHERS;
        for (int i = 0; i < outside; i++) {
            a.send(new BytesMessage(new IpAddress("127.0.0.1", FreePorts.clusterPort()), new byte[] {1}).setFlag(Message.Flag.NO_RELIABILITY));
        }
        await("a's bundler bounded at its next send").atMost(BOUND).untilAsserted(() -> {
            a.send(new BytesMessage(b.getAddress(), new byte[] {2}));
            assertThat(bundler(a).destinations()).contains(b.getAddress()).hasSizeLessThanOrEqualTo(2 + ViewBoundBundler.MAX_OTHERS);
        });
    }
}
