package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jgroups.JChannel;
import org.jgroups.stack.Protocol;

/** Bare JGroups channels with the daemon's own stack on loopback (lab timing), for tests below {@code Cluster}. */
public final class StackChannels {
    /**
     * Lab timing with heartbeats that time out after a minute and merge rounds a minute or more
     * apart: nothing suspects anyone, and no merge round's INFO tells anyone an address, meanwhile. A
     * suspect has 5 s to answer VERIFY_SUSPECT2 (the lab's 500 ms), so that a busy machine does not get a
     * live member excluded.
     */
    public static final ClusterTiming QUIET = ClusterTiming.LAB.withHeartbeats(1_000, 60_000).withMergeIntervals(60_000, 120_000)
            .withVerifyTimeout(5_000);

    private StackChannels() {
    }

    /**
     * @param cluster  the cluster's name
     * @param node     the node the member is named after
     * @param port     its cluster port on loopback
     * @param seedPort the port of its one seed, on loopback
     * @return the daemon's protocols for that member at {@link #QUIET} timing, without a key
     */
    public static List<Protocol> quietProtocols(String cluster, String node, int port, int seedPort) {
        ClusterConfig config = new ClusterConfig(cluster, node, InetAddress.getLoopbackAddress(), port, List.of(new Seed("127.0.0.1", seedPort)),
                Optional.empty(), QUIET);
        return ClusterStack.protocols(config, w -> { });
    }

    /**
     * @param cluster the cluster's name
     * @param node    the node the channel's address names
     * @param port    its cluster port on loopback
     * @param seeds   the members it asks when joining
     * @param key     the cluster key, if any
     * @return the channel, connected (its view formed); the caller closes it
     * @throws Exception when JGroups cannot start it
     */
    public static JChannel connect(String cluster, String node, int port, List<Seed> seeds, Optional<ClusterKey> key) throws Exception {
        ClusterConfig config = new ClusterConfig(cluster, node, InetAddress.getLoopbackAddress(), port, seeds, key, ClusterTiming.LAB);
        JChannel channel = new JChannel(ClusterStack.protocols(config, w -> { }));
        try {
            channel.addAddressGenerator(NodeAddresses.generator(node, UUID.randomUUID()));
            channel.name(node);
            channel.connect(cluster);
            return channel;
        } catch (Exception e) {
            channel.close();
            throw e;
        }
    }
}
