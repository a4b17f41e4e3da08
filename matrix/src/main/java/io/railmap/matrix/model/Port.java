package io.railmap.matrix.model;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One end of a cable: a port on one node, and the far ends it observed.
 *
 * @param node       the node this port is on
 * @param netdev     the netdev name ({@code en6}, {@code enp1s0f1np1}, a veth name); unique on its node
 * @param rdma       the RDMA device name exactly as {@code ibv_devices} prints it ({@code rdma_en6},
 *                   {@code mlx5_0}); empty for a port without RDMA
 * @param rdmaPort   the RDMA port number (1-based, as in sysfs {@code ports/<n>}); 1 when there is no RDMA
 * @param kind       what kind of link the port drives
 * @param rateGbps   the link rate in Gb/s (sysfs {@code rate}, Thunderbolt link speed); empty when unknown
 * @param state      the logical port state
 * @param thunderbolt the Thunderbolt link's facts ({@link Thunderbolt}), for Thunderbolt ports found on
 *                   macOS and thunderbolt-net netdevs of Linux XDomains; else empty
 * @param addresses  the IP addresses of the port's netdev ({@link IpAddresses}: IPv4 dotted quads, then
 *                   IPv6 in RFC 5952 form without a zone, each group in numeric order, distinct), at
 *                   most {@value IpAddresses#MAX_PER_PORT}; empty when it has none or they are unknown
 * @param prefixLengths the prefix length of each of {@code addresses} whose length the record says
 *                   (snapshot format 5, JSON {@code "prefixLengths"}): address, in the form of
 *                   {@link IpAddresses#canonical}, → 0–32 for IPv4, 0–128 for IPv6, as the netdev's
 *                   listing gives it ({@code ip addr}, {@code ifconfig}, the JDK's
 *                   {@code InterfaceAddress}); empty for a record that does not say (an older daemon)
 * @param addressesKnown true when the record says which addresses the netdev has (format version 2,
 *                   JSON {@code "addresses"} an array, possibly empty); false when it does not (a
 *                   version-1 record, an older daemon, discovery from a sysfs tree or a capture
 *                   without {@code ifconfig}: JSON {@code "addresses"} absent or null), so that no
 *                   one mistakes "not reported" for "none"
 * @param bridge     the bridge the port's netdev is a member of (macOS {@code bridge0}, the
 *                   Thunderbolt Bridge; Linux {@code /sys/class/net/<dev>/master} of a bridge port);
 *                   empty when none or unknown
 * @param switchPort the switch port at the far end, when a switch announced itself on this port's
 *                   cable (LLDP) or the InfiniBand fabric names it; empty when there is none or it is
 *                   not known (no lldpd, no infiniband-diags, a record of snapshot format 2 or older)
 * @param gidIndex   the index in the RDMA port's GID table of its RoCE v2 GID whose address is
 *                   IPv4-mapped ({@code ::ffff:a.b.c.d}; Linux {@code /sys/class/infiniband/<hca>/ports/<n>/gids/<i>}
 *                   with {@code gid_attrs/types/<i>} reading {@code RoCE v2}), the lowest when there
 *                   are several: what NCCL_IB_GID_INDEX and UCX_IB_GID_INDEX take; empty for a port
 *                   without one (InfiniBand, no IPv4 address, no RDMA) or whose record does not say
 * @param infiniband the InfiniBand fabric's facts for a back-to-back cable: this port's HCA node GUID
 *                   and the HCA port at the far end ({@link Infiniband}); empty for a port that is not
 *                   InfiniBand, when infiniband-diags is not there, or a record of snapshot format 3 or older
 * @param rdmaLimits what the port's RDMA device says it holds ({@link RdmaLimits}: {@code max_qp},
 *                   {@code max_pd}, {@code max_mr}, {@code max_cqe}, from {@code ibv_devinfo -v});
 *                   empty for a port without RDMA, when the device was not asked, or a record of
 *                   snapshot format 6 or older (or of 7 before the field: it came before a release)
 * @param neighbours the far ends this port observed (by link probe); one for a cable, several for a
 *                   shared segment, none when nothing was heard. Sorted and distinct.
 */
public record Port(
        String node,
        String netdev,
        Optional<String> rdma,
        int rdmaPort,
        PortKind kind,
        Optional<Double> rateGbps,
        PortState state,
        Optional<Thunderbolt> thunderbolt,
        List<String> addresses,
        Map<String, Integer> prefixLengths,
        boolean addressesKnown,
        Optional<String> bridge,
        Optional<SwitchPort> switchPort,
        Optional<Integer> gidIndex,
        Optional<Infiniband> infiniband,
        Optional<RdmaLimits> rdmaLimits,
        List<PortRef> neighbours) {

    /**
     * Validates names, numbers and addresses, and sorts and de-duplicates the addresses and the
     * neighbours.
     *
     * @throws IllegalArgumentException when a name is empty or holds whitespace, the RDMA port is
     *                                  below 1, the rate is not a finite number ≥ 0, an address is not
     *                                  an IP address ({@link IpAddresses#canonical}), there are more
     *                                  than {@value IpAddresses#MAX_PER_PORT}, there are addresses
     *                                  though they are not known, a prefix length is given for an
     *                                  address the port does not have or is out of range, the GID index is negative or given
     *                                  without an RDMA device, InfiniBand facts are given without an
     *                                  RDMA device, or a neighbour is this port itself
     * @throws NullPointerException     when a component is null
     */
    public Port {
        Names.node("node", node);
        Names.plain("netdev", netdev);
        rdma.ifPresent(r -> Names.plain("RDMA device", r));
        if (rdmaPort < 1) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + ": RDMA port " + rdmaPort + " is below 1");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(thunderbolt, "thunderbolt");
        rateGbps.ifPresent(r -> Rates.requireRate("port " + node + ":" + netdev + " rate", r));
        addresses = IpAddresses.forPort("port " + node + ":" + netdev + " address", addresses);
        prefixLengths = prefixLengths(node + ":" + netdev, addresses, prefixLengths);
        if (!addressesKnown && !addresses.isEmpty()) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + " has addresses, but says they are not known");
        }
        bridge.ifPresent(b -> Names.plain("bridge", b));
        Objects.requireNonNull(switchPort, "switchPort");
        Objects.requireNonNull(gidIndex, "gidIndex");
        Objects.requireNonNull(infiniband, "infiniband");
        if (infiniband.isPresent() && rdma.isEmpty()) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + ": InfiniBand HCA facts without an RDMA device");
        }
        Objects.requireNonNull(rdmaLimits, "rdmaLimits");
        if (rdmaLimits.isPresent() && rdma.isEmpty()) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + ": RDMA device limits without an RDMA device");
        }
        if (gidIndex.isPresent() && (gidIndex.get() < 0 || rdma.isEmpty())) {
            throw new IllegalArgumentException("port " + node + ":" + netdev + ": GID index " + gidIndex.get()
                    + (rdma.isEmpty() ? " without an RDMA device" : " is negative"));
        }
        neighbours = neighbours.stream().distinct().sorted().toList();
        PortRef self = new PortRef(node, netdev);
        if (neighbours.contains(self)) {
            throw new IllegalArgumentException("port " + self + " lists itself as a neighbour");
        }
    }

    /**
     * A port whose record does not say its RDMA device's limits.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<String> addresses, Map<String, Integer> prefixLengths,
                boolean addressesKnown, Optional<String> bridge, Optional<SwitchPort> switchPort, Optional<Integer> gidIndex,
                Optional<Infiniband> infiniband, List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown, bridge,
                switchPort, gidIndex, infiniband, Optional.empty(), neighbours);
    }

    /**
     * A port whose record does not say its addresses' prefix lengths (snapshot format 4 and older).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<String> addresses, boolean addressesKnown,
                Optional<String> bridge, Optional<SwitchPort> switchPort, Optional<Integer> gidIndex, Optional<Infiniband> infiniband,
                List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, Map.of(), addressesKnown, bridge, switchPort,
                gidIndex, infiniband, neighbours);
    }

    /**
     * A port without InfiniBand fabric facts ({@link Infiniband}), or whose record does not say
     * (snapshot format 3).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<String> addresses, boolean addressesKnown,
                Optional<String> bridge, Optional<SwitchPort> switchPort, Optional<Integer> gidIndex, List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, addressesKnown, bridge, switchPort,
                gidIndex, Optional.empty(), neighbours);
    }

    /**
     * A port without a known RoCE v2 GID index.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<String> addresses, boolean addressesKnown,
                Optional<String> bridge, Optional<SwitchPort> switchPort, List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, addressesKnown, bridge, switchPort,
                Optional.empty(), neighbours);
    }

    /**
     * A port without a switch at its far end, or whose record does not say (snapshot format 2).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<String> addresses, boolean addressesKnown,
                Optional<String> bridge, List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, addressesKnown, bridge, Optional.empty(),
                Optional.empty(), neighbours);
    }

    /**
     * A port whose record says nothing about its addresses or bridge, as a format-version-1 record:
     * no addresses, {@code addressesKnown} false, no bridge.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port(String node, String netdev, Optional<String> rdma, int rdmaPort, PortKind kind, Optional<Double> rateGbps,
                PortState state, Optional<Thunderbolt> thunderbolt, List<PortRef> neighbours) {
        this(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, List.of(), false, Optional.empty(), neighbours);
    }

    /** @return this port's identity, {@code node:netdev} */
    public PortRef ref() {
        return new PortRef(node, netdev);
    }

    /**
     * @return true for a Mac's Thunderbolt port, to which Apple's rules apply (its RDMA device's queue
     *         pair budget, {@code ifconfig}, Thunderbolt 5): kind thunderbolt and not a Linux XDomain
     *         link ({@link Thunderbolt#xdomain()} present)
     */
    public boolean appleThunderbolt() {
        return kind == PortKind.THUNDERBOLT && thunderbolt.flatMap(Thunderbolt::xdomain).isEmpty();
    }

    /** @return true when the port is {@link PortState#ACTIVE} */
    public boolean active() {
        return state == PortState.ACTIVE;
    }

    /**
     * @param address one of {@link #addresses()}
     * @return its prefix length, when the record says it
     */
    public Optional<Integer> prefixLength(String address) {
        return Optional.ofNullable(prefixLengths.get(Objects.requireNonNull(address, "address")));
    }

    /**
     * @param newPrefixLengths the prefix lengths now known, address → length
     * @return a copy of this port with them
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port withPrefixLengths(Map<String, Integer> newPrefixLengths) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, newPrefixLengths, addressesKnown,
                bridge, switchPort, gidIndex, infiniband, rdmaLimits, neighbours);
    }

    /** Canonical keys, each an address of the port, each length in range; an unmodifiable copy in address order. */
    private static Map<String, Integer> prefixLengths(String port, List<String> addresses, Map<String, Integer> given) {
        Objects.requireNonNull(given, "prefixLengths");
        Map<String, Integer> out = new TreeMap<>(Comparator.comparingInt(addresses::indexOf));
        for (Map.Entry<String, Integer> e : given.entrySet()) {
            String address = IpAddresses.canonical("port " + port + " prefix length's address", e.getKey());
            if (!addresses.contains(address)) {
                throw new IllegalArgumentException("port " + port + ": a prefix length for " + address + ", which is not an address of the port");
            }
            int max = IpAddresses.isIpv4(address) ? 32 : 128;
            if (e.getValue() == null || e.getValue() < 0 || e.getValue() > max) {
                throw new IllegalArgumentException("port " + port + ": prefix length " + e.getValue() + " of " + address + " is not 0 to " + max);
            }
            if (out.put(address, e.getValue()) != null) {
                throw new IllegalArgumentException("port " + port + ": two prefix lengths for " + address);
            }
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(out));
    }

    /** @return the IPv4 addresses among {@link #addresses()}, in numeric order */
    public List<String> ipv4() {
        return addresses.stream().filter(IpAddresses::isIpv4).toList();
    }

    /**
     * @param newNeighbours the far ends now observed
     * @return a copy of this port with those neighbours
     */
    public Port withNeighbours(List<PortRef> newNeighbours) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, switchPort, gidIndex, infiniband, rdmaLimits, newNeighbours);
    }

    /**
     * @param newState the new state
     * @return a copy of this port in that state
     */
    public Port withState(PortState newState) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, newState, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, switchPort, gidIndex, infiniband, rdmaLimits, neighbours);
    }

    /**
     * @param newSwitchPort the switch port now known at the far end, or empty
     * @return a copy of this port with it
     */
    public Port withSwitchPort(Optional<SwitchPort> newSwitchPort) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, newSwitchPort, gidIndex, infiniband, rdmaLimits, neighbours);
    }

    /**
     * @param newGidIndex the RoCE v2 GID index now known, or empty
     * @return a copy of this port with it
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port withGidIndex(Optional<Integer> newGidIndex) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, switchPort, newGidIndex, infiniband, rdmaLimits, neighbours);
    }

    /**
     * @param newInfiniband the InfiniBand fabric's facts now known, or empty
     * @return a copy of this port with them
     */
    public Port withInfiniband(Optional<Infiniband> newInfiniband) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, switchPort, gidIndex, newInfiniband, rdmaLimits, neighbours);
    }

    /**
     * @param newRdmaLimits what the RDMA device now says it holds, or empty
     * @return a copy of this port with it
     * @throws IllegalArgumentException as the canonical constructor
     */
    public Port withRdmaLimits(Optional<RdmaLimits> newRdmaLimits) {
        return new Port(node, netdev, rdma, rdmaPort, kind, rateGbps, state, thunderbolt, addresses, prefixLengths, addressesKnown,
                bridge, switchPort, gidIndex, infiniband, newRdmaLimits, neighbours);
    }
}
