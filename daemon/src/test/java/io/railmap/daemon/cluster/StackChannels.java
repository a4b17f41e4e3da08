package io.railmap.daemon.cluster;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jgroups.JChannel;

/** Bare JGroups channels with the daemon's own stack on loopback (lab timing), for tests below {@link Cluster}. */
final class StackChannels {
    private StackChannels() {
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
    static JChannel connect(String cluster, String node, int port, List<Seed> seeds, Optional<ClusterKey> key) throws Exception {
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
