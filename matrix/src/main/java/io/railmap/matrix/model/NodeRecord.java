package io.railmap.matrix.model;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One node's report: its ports and the far ends each port observed. A record is made by one start
 * of the node's daemon, its {@code incarnation}, which raises {@code version} on every change: of
 * two records of one incarnation the higher version is the newer. Records of two incarnations are
 * not ordered by their versions: which one counts is decided by who sent it (the cluster takes a
 * node's record from that node's current member, {@code daemon/CLUSTER.md}).
 *
 * @param node        the node name
 * @param version     grows on every change within one incarnation; at least 0
 * @param ports       the node's ports, sorted by netdev name (digits compared as numbers)
 * @param management  the node's management address, the one its daemon binds the cluster to
 *                    ({@code railmapd --bind}, or the address of the default route's interface), in
 *                    the form of {@link IpAddresses#canonical}; empty when unknown (an older record,
 *                    a daemon that is a cluster of one on loopback)
 * @param rdmaEnabled whether RDMA over Thunderbolt is turned on (macOS {@code rdma_ctl status}:
 *                    {@code enabled} or {@code disabled}); empty on Linux and when unknown
 * @param incarnation the start of the daemon that made the record: a random UUID made when railmapd
 *                    starts, which is also its cluster member's identity; empty when unknown (a
 *                    record of {@code railmap discover}, of a snapshot written before incarnations)
 * @param ranks       the ranks of collective jobs running on the node, as its daemon found them
 *                    (docs/jobs.md), sorted by process id; at most {@link JobVariables#MAX_RANKS_PER_NODE};
 *                    empty when there are none or the record does not say (an older record, a record of
 *                    {@code railmap discover})
 */
public record NodeRecord(String node, long version, List<Port> ports, Optional<String> management,
                         Optional<Boolean> rdmaEnabled, Optional<UUID> incarnation, List<LocalRank> ranks) {

    /**
     * @throws IllegalArgumentException when the node name is bad, the version is negative, a port
     *                                  belongs to another node, two ports share a netdev name or an
     *                                  RDMA device and port number, or the management address is not
     *                                  an IP address without a zone, or there are more than
     *                                  {@link JobVariables#MAX_RANKS_PER_NODE} ranks or two of one
     *                                  process id
     * @throws NullPointerException     when a component is null
     */
    public NodeRecord {
        Names.node("node", node);
        management = management.map(m -> IpAddresses.canonical("management address of node " + node, m));
        Objects.requireNonNull(rdmaEnabled, "rdmaEnabled");
        Objects.requireNonNull(incarnation, "incarnation");
        if (version < 0) {
            throw new IllegalArgumentException("record of node " + node + ": version " + version + " is negative");
        }
        Set<String> netdevs = new HashSet<>();
        Set<String> hcaPorts = new HashSet<>();
        for (Port port : ports) {
            if (!port.node().equals(node)) {
                throw new IllegalArgumentException("record of node " + node + " holds port " + port.ref()
                        + " of another node");
            }
            if (!netdevs.add(port.netdev())) {
                throw new IllegalArgumentException("record of node " + node + " lists netdev " + port.netdev() + " twice");
            }
            if (port.rdma().isPresent() && !hcaPorts.add(port.rdma().get() + "/" + port.rdmaPort())) {
                throw new IllegalArgumentException("record of node " + node + " lists RDMA port "
                        + port.rdma().get() + "/" + port.rdmaPort() + " twice");
            }
        }
        ports = ports.stream().sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.netdev(), b.netdev())).toList();
        if (ranks.size() > JobVariables.MAX_RANKS_PER_NODE) {
            throw new IllegalArgumentException("record of node " + node + " holds " + ranks.size() + " ranks, over "
                    + JobVariables.MAX_RANKS_PER_NODE);
        }
        Set<Long> pids = new HashSet<>();
        for (LocalRank rank : ranks) {
            if (!pids.add(rank.pid())) {
                throw new IllegalArgumentException("record of node " + node + " lists process " + rank.pid() + " twice");
            }
        }
        ranks = ranks.stream().sorted(java.util.Comparator.comparingLong(LocalRank::pid)).toList();
    }

    /**
     * A record without ranks (of a daemon that found none, or one that does not look).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public NodeRecord(String node, long version, List<Port> ports, Optional<String> management, Optional<Boolean> rdmaEnabled,
                      Optional<UUID> incarnation) {
        this(node, version, ports, management, rdmaEnabled, incarnation, List.of());
    }

    /**
     * @param newRanks the ranks found now
     * @return this record with those ranks, of the same version (the caller raises it)
     * @throws IllegalArgumentException as the canonical constructor
     */
    public NodeRecord withRanks(List<LocalRank> newRanks) {
        return new NodeRecord(node, version, ports, management, rdmaEnabled, incarnation, newRanks);
    }

    /**
     * A record of no known incarnation.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public NodeRecord(String node, long version, List<Port> ports, Optional<String> management, Optional<Boolean> rdmaEnabled) {
        this(node, version, ports, management, rdmaEnabled, Optional.empty(), List.of());
    }

    /**
     * A record that says nothing about the management address, RDMA or its incarnation, as a
     * format-version-1 record.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public NodeRecord(String node, long version, List<Port> ports) {
        this(node, version, ports, Optional.empty(), Optional.empty(), Optional.empty(), List.of());
    }

    /**
     * @param netdev a netdev name
     * @return the port with that name, if any
     */
    public Optional<Port> port(String netdev) {
        return ports.stream().filter(p -> p.netdev().equals(netdev)).findFirst();
    }
}
