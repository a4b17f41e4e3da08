package io.railmap.matrix.address;

import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Addresses that pin every TCP connection to its cable: each cable gets an IPv4 subnet of its own
 * (a /{@value #CABLE_PREFIX_LENGTH}, its two ends the subnet's two host addresses), each segment (the
 * node ports on one switch: a rail) one /{@value #SEGMENT_PREFIX_LENGTH}, none overlapping another.
 *
 * <p>Why: a connection to an address names no port; the kernel sends it by the longest prefix among
 * the node's connected subnets, and when two ports hold that subnet (every Thunderbolt port of a Mac
 * self-assigns 169.254.x.y/16, RFC 3927) the first route wins on Linux and macOS alike, so a stream
 * meant for cable 2 leaves on cable 1 ({@link Routes}). A subnet per cable leaves one route to each
 * far end. mlx.distributed_config does the same: {@code IPConfigurator} in
 * {@code python/mlx/_distributed_utils/config.py} (MLX 0.32) gives each Thunderbolt cable its own /30
 * from 192.168.0.0/16, both ends stepped alike. A rail's ports share one /24, the subnet NCCL's
 * subnet-aware routing compares ({@code NCCL_IB_SUBNET_PREFIX_LEN}'s default).
 *
 * <p>Rule: segments first, then cables, each in the order given, each takes the first block of its
 * size in the pool, aligned, that overlaps no block already given, holds no address in
 * {@code taken}, and, in the link-local pool, is not in 169.254.0.0/24 or 169.254.255.0/24 (reserved
 * by RFC 3927 section 2.1). The same links in the same order always get the same addresses.
 *
 * <p>Cost: O(L + T) for L links and T taken addresses, plus O(log T) per block tried.
 *
 * @param pool  the block the subnets come from
 * @param links per link in the order given, its subnet and the address of each end
 */
public record AddressPlan(Ipv4Subnet pool, List<Assignment> links) {
    /** The prefix length of a cable's subnet: two hosts, as mlx.distributed_config gives. */
    public static final int CABLE_PREFIX_LENGTH = 30;
    /** The prefix length of a segment's subnet (a rail): up to 253 ports. */
    public static final int SEGMENT_PREFIX_LENGTH = 24;
    /** The pool when none is given: the link-local block, which no router forwards and no LAN numbers. */
    public static final Ipv4Subnet DEFAULT_POOL = Ipv4Subnet.LINK_LOCAL;

    private static final List<Ipv4Subnet> LINK_LOCAL_RESERVED = List.of(
            Ipv4Subnet.parse("RFC 3927", "169.254.0.0/24"), Ipv4Subnet.parse("RFC 3927", "169.254.255.0/24"));

    /** Copies the list. */
    public AddressPlan {
        Objects.requireNonNull(pool, "pool");
        links = List.copyOf(links);
    }

    /**
     * A link to number: a cable (two ends) or a segment (the node ports on one switch).
     *
     * @param ends    the node ports on the link, each once: two for a cable, at least one for a segment
     * @param segment true for a segment, false for a cable
     */
    public record Link(List<PortRef> ends, boolean segment) {
        /** @throws IllegalArgumentException when a cable has not two ends, a segment none or too many, or an end repeats */
        public Link {
            ends = List.copyOf(ends);
            if (ends.isEmpty() || !segment && ends.size() != 2 || ends.stream().distinct().count() != ends.size()) {
                throw new IllegalArgumentException(segment ? "a segment needs at least one port, each once, not " + ends
                        : "a cable needs exactly two distinct ends, not " + ends);
            }
            if (segment && ends.size() > (1 << (32 - SEGMENT_PREFIX_LENGTH)) - 3) {
                throw new IllegalArgumentException("a segment of " + ends.size() + " ports does not fit a /" + SEGMENT_PREFIX_LENGTH);
            }
        }
    }

    /**
     * @param link      the link
     * @param subnet    its subnet
     * @param addresses the address of each end, in the order of {@link Link#ends()}: the subnet's first host addresses
     */
    public record Assignment(Link link, Ipv4Subnet subnet, List<String> addresses) {
        /** Copies the list. */
        public Assignment {
            addresses = List.copyOf(addresses);
        }

        /**
         * @param end a port of the link
         * @return its address
         * @throws IllegalArgumentException when the port is not an end of the link
         */
        public String address(PortRef end) {
            int i = link.ends().indexOf(end);
            if (i < 0) {
                throw new IllegalArgumentException(end + " is not an end of " + link.ends());
            }
            return addresses.get(i);
        }
    }

    /**
     * @param links the links to number, in order
     * @param pool  where the subnets come from; at most /{@value #SEGMENT_PREFIX_LENGTH} when there is a
     *              segment, at most /{@value #CABLE_PREFIX_LENGTH} otherwise
     * @param taken IPv4 addresses already in use on the nodes (management addresses, ports not planned):
     *              no subnet given holds one
     * @return the plan
     * @throws IllegalArgumentException when a port is on two links, a taken address is not IPv4, or the
     *                                  pool has too little room (saying how many subnets were needed)
     */
    public static AddressPlan of(List<Link> links, Ipv4Subnet pool, List<String> taken) {
        TreeSet<PortRef> seen = new TreeSet<>();
        for (Link link : links) {
            for (PortRef end : link.ends()) {
                if (!seen.add(end)) {
                    throw new IllegalArgumentException("port " + end + " is on two links: a port takes one address of the plan");
                }
            }
        }
        TreeSet<Long> used = new TreeSet<>();
        taken.forEach(a -> used.add(Ipv4Subnet.number(a)));
        List<Ipv4Subnet> given = new ArrayList<>();
        if (pool.overlaps(Ipv4Subnet.LINK_LOCAL)) {
            LINK_LOCAL_RESERVED.stream().filter(pool::overlaps).forEach(given::add);
        }
        Assignment[] out = new Assignment[links.size()];
        for (boolean segments : new boolean[] {true, false}) {
            int length = segments ? SEGMENT_PREFIX_LENGTH : CABLE_PREFIX_LENGTH;
            long next = pool.network();
            for (int i = 0; i < links.size(); i++) {
                Link link = links.get(i);
                if (link.segment() != segments) {
                    continue;
                }
                if (pool.prefixLength() > length) {
                    throw new IllegalArgumentException("the pool " + pool + " is smaller than one " + (segments ? "segment's" : "cable's")
                            + " subnet (/" + length + "): give a pool of /" + length + " or larger");
                }
                Ipv4Subnet subnet = null;
                long end = pool.network() + pool.size();
                for (; next < end && subnet == null; next += 1L << (32 - length)) {
                    Ipv4Subnet candidate = new Ipv4Subnet(next, length);
                    Long inUse = used.ceiling(candidate.network());
                    if (given.stream().noneMatch(candidate::overlaps) && (inUse == null || inUse >= candidate.network() + candidate.size())) {
                        subnet = candidate;
                    }
                }
                if (subnet == null) {
                    long cables = links.stream().filter(l -> !l.segment()).count();
                    throw new IllegalArgumentException("the pool " + pool + " has no room for " + (links.size() - cables) + " segments (/"
                            + SEGMENT_PREFIX_LENGTH + " each) and " + cables + " cables (/" + CABLE_PREFIX_LENGTH + " each)"
                            + (used.isEmpty() ? "" : " beside the " + used.size() + " addresses already in use")
                            + ": give a larger pool");
                }
                if (segments) {
                    // a cable's block is always behind the cursor of its pass: only segments and reserved blocks lie ahead
                    given.add(subnet);
                }
                List<String> addresses = new ArrayList<>();
                for (int e = 0; e < link.ends().size(); e++) {
                    addresses.add(subnet.address(e + 1));
                }
                out[i] = new Assignment(link, subnet, addresses);
            }
        }
        return new AddressPlan(pool, List.of(out));
    }
}
