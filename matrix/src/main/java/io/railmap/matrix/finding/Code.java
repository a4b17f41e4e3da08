package io.railmap.matrix.finding;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a finding is about. The external name ({@code mismatched-rail}) is stable: scripts match on it.
 */
public enum Code {
    /** devices[i][j][k] and devices[j][i][k] are ends of two different cables between i and j. */
    MISMATCHED_RAIL,
    /**
     * A name in the file is neither an RDMA device nor a netdev of the rank's node (env check:
     * {@code NCCL_SOCKET_IFNAME} matches no netdev of the node).
     */
    UNKNOWN_DEVICE,
    /** A name in the file is a netdev; jaccl opens RDMA devices by name only. */
    NETDEV_NAME,
    /** A cable between ranks has an end without an RDMA device, so it cannot be a jaccl rail. */
    NO_RDMA_DEVICE,
    /** One rank: jaccl needs at least two. */
    ONE_RANK,
    /** The file needs a newer MLX than the one it is for (an array cell, several names in a cell, a ring, a multi-wire ring). */
    NEEDS_NEWER_MLX,
    /** Ring, MLX before 0.31.2: two ranks that are not ring neighbours have wires in their cells. */
    NON_NEIGHBOUR_WIRES,
    /** An RDMA device is used for more queue pairs than it can create (its own max_qp, or the Thunderbolt limit). */
    TOO_MANY_QUEUE_PAIRS,
    /** An RDMA device would register more memory regions than its max_mr. */
    TOO_MANY_MEMORY_REGIONS,
    /** A config names records (RAILMAP_TOPOLOGY) other than those the cluster holds now. */
    STALE_CONFIG,
    /** A hostfile's envs set a JACCL_* variable that replaces what mlx.launch hands each rank. */
    OVERRIDDEN_BY_ENVS,
    /** jaccl would refuse this matrix, throw at init or misbehave, whatever the rank order of the request. */
    JACCL_CANNOT_RUN,
    /** The two named devices are not joined by any cable (one is not cabled to the other node). */
    NOT_A_CABLE,
    /** The two ends are one cable, but a port is not active. */
    LINK_DOWN,
    /** devices[i][j] has wire k but devices[j][i] has no wire k. */
    UNPAIRED_WIRE,
    /** Mesh: a pair of ranks has no wire; jaccl's mesh needs every pair. */
    MISSING_LINK,
    /** Ring: a rank's two neighbour cells do not hold as many wires as devices[0][1]. */
    UNEQUAL_RING_WIRES,
    /** Ring: more than 4 wires towards a neighbour (the ring throws at init). */
    TOO_MANY_WIRES,
    /** Mesh: more than 8 ranks (the mesh throws at init). */
    MESH_TOO_LARGE,
    /** A device name is the empty string, which jaccl takes as a device named "". */
    EMPTY_NAME,
    /** devices[i][i] is not empty. */
    DIAGONAL_NOT_EMPTY,
    /** The file is not an N×N matrix for the N ranks given. */
    NOT_SQUARE,
    /** Ring: neighbouring ranks share no wire, so the rank order is not a cycle of the cable graph. */
    RING_NOT_A_CYCLE,
    /** Mesh: cells hold several wires, but the mesh uses only wire 0. */
    EXTRA_WIRES_UNUSED,
    /** A port observed a far end that does not observe it back; not used in any matrix. */
    UNCONFIRMED_CABLE,
    /** A compute NIC reaches another rail than the same-named NIC of most nodes (a cable on the wrong leaf). */
    CROSS_RAIL,
    /** A node has no NIC on a rail most nodes reach. */
    RAIL_MISSING,
    /** A node has two or more NICs on one rail. */
    TWO_NICS_ONE_RAIL,
    /** The NICs on one rail run at different rates. */
    MIXED_RATES_ON_RAIL,
    /** A compute NIC's switch is not known: no LLDP, InfiniBand or probe far end (or the probe's only). */
    UNKNOWN_FAR_END,
    /** A port heard several far ends: a switch segment, not a cable (jaccl's concern: it needs point-to-point cables). */
    SHARED_SEGMENT,
    /** A cable between two ranks that is not a rail (down, too slow, over a cap, trimmed). */
    CABLE_LEFT_OUT,
    /** A port's Thunderbolt pairing or InfiniBand neighbour and its probe name different far ends; none of its cables is a rail. */
    SOURCES_DISAGREE,
    /**
     * Readiness: a ranked node whose record says RDMA over Thunderbolt is off ({@code rdma_ctl status}:
     * disabled) has Thunderbolt ports cabled to other ranks; it is turned on in macOS Recovery.
     */
    RDMA_DISABLED,
    /**
     * Readiness: a cable end between ranks is a member of a bridge (on a Mac, {@code bridge0}, the
     * Thunderbolt Bridge, while which jaccl's queue pairs fail to reach RTR with errno 22). An error
     * for a rail end, a warning for another cable between ranks.
     */
    BRIDGED_PORT,
    /**
     * Readiness: a rail end whose record lists its addresses has no IPv4 address, so its RDMA device
     * has no IPv4-mapped GID, which jaccl needs (MLX {@code jaccl/rdma.cpp}, {@code Connection::info}).
     */
    NO_IPV4,
    /** Readiness: a Thunderbolt cable between ranks links below 80 Gb/s (Thunderbolt 4 or a TB4 cable); RDMA needs Thunderbolt 5. */
    SLOW_THUNDERBOLT,
    /** Readiness: a Thunderbolt cable between ranks reaches its peer through a hub or dock, which carries no RDMA. */
    BEHIND_HUB,
    /**
     * Settings: the two ends of a direct cable, or the compute NICs of one rail, are not on one IPv4
     * subnet (the /24 NCCL compares, {@code NCCL_IB_SUBNET_PREFIX_LEN}), so a RoCE v2 peer is not
     * reached over the cable, or NCCL's subnet-aware routing pairs other NICs.
     */
    SUBNET_MISMATCH,
    /** Settings: a node's RoCE compute NICs have no one RoCE v2 GID index in common (or it is not known). */
    MIXED_GID_INDEX,
    /** Env check: a device list names an RDMA device (or port) the node does not have. */
    UNKNOWN_HCA,
    /**
     * Env check: one NCCL_IB_HCA rail id covers NICs of the node that railmap puts on different rails
     * (switches, or direct cables to one peer).
     */
    WRONG_RAIL_ID,
    /**
     * Env check: NCCL_IB_HCA numbers the node's rails otherwise than railmap, but each id covers one
     * rail (NCCL compares rail ids only between one node's NICs): an info.
     */
    RENUMBERED_RAIL_ID,
    /** Env check: a stripe list names a NIC slower than the compute NICs, or the management NIC. */
    SIDE_NIC_IN_LIST,
    /** Env check: a variable's value the library would refuse or misread (NaN, negative or infinite rate, ...). */
    BAD_SETTING,
    /** Env check: {@code NCCL_IB_GID_INDEX} or {@code UCX_IB_GID_INDEX} is not a RoCE compute NIC's RoCE v2 IPv4 GID index. */
    WRONG_GID_INDEX,
    /**
     * Env check: {@code NCCL_IB_SUBNET_AWARE_ROUTING} is unset or 0 where railmap's NCCL settings turn it
     * on (compute NICs cabled directly to several nodes, or a cross-rail NIC on per-rail subnets).
     */
    SUBNET_ROUTING_OFF,
    /**
     * Settings: a caveat about the library itself, whatever the cables (NIXL replaces
     * {@code UCX_NET_DEVICES} when given a device list; ModelExpress's list is indexed by CUDA device;
     * jaccl runs the ring when its variable exists at all).
     */
    SETTING_CAVEAT,
    /** Settings: a library reads (or stripes over) at most N NICs of its list, and more are present or listed. */
    LIST_LIMIT,
    /** Settings: an RDMA device name a library's device list cannot carry (its separators, its name length). */
    UNLISTABLE_NAME,
    /**
     * Settings: two libraries asked for together set one variable to two values (jaccl's and the TCP
     * ring's {@code MLX_RANK}); in one file the later would silently win, so only the first is written.
     */
    SETTING_CONFLICT,
    /**
     * TCP (MLX's ring backend): a connection meant for one cable may travel another, because the
     * node holds the far end's subnet on several ports (every Thunderbolt port of a Mac self-assigns
     * 169.254.x.y/16) and the kernel takes the first of equal routes ({@link io.railmap.matrix.address.Routes}).
     */
    SHARED_SUBNET,
    /** Ring hostfile: an address is no address of the rank's node (the rank cannot listen on it). */
    UNKNOWN_ADDRESS,
    /** Ring hostfile: a rank lists two addresses on one cable, so two wires travel that cable. */
    SAME_CABLE_TWICE,
    /**
     * Env file: a line holds a character a reader does not see but a shell keeps in the word (a
     * carriage return before the line's end, another control character, an invisible format
     * character), so the value the library gets is not the one the file shows ({@link io.railmap.matrix.library.EnvFile}).
     */
    INVISIBLE_CHARACTER,
    /**
     * Running job: rail k of ranks i and j names ends of two different cables (each rank picked its own
     * port for the pair: exo pull request 2160's hang), or a port cabled to a third node.
     */
    JOB_RAIL_MISMATCH,
    /** Running job: a rank's settings name a port, device or cable that no longer exists or is down. */
    JOB_STALE,
    /**
     * Running job: ranks are missing (fewer found than the job's size says, a rank without its devices
     * row or rank number), or two processes claim one rank number.
     */
    JOB_INCOMPLETE,
    /** Running job: railmap cannot check it (what it would need is not published, or two ranks share a node). */
    JOB_UNCHECKED,
    /**
     * A port's LLDP neighbour announces a cluster node's name as its system name, but the link probe hears
     * a segment or another node's port there: LLDP is unauthenticated, so the announcement is not believed
     * and the port's rail stays as the probe sees it ({@link io.railmap.matrix.fabric.LldpImpostors}).
     */
    LLDP_IMPOSTOR;

    /** The codes about jaccl's point-to-point world: its matrix, its rails over direct cables, its launch readiness. */
    private static final Set<Code> JACCL_CODES = EnumSet.of(MISMATCHED_RAIL, NETDEV_NAME, NO_RDMA_DEVICE, NON_NEIGHBOUR_WIRES,
            TOO_MANY_QUEUE_PAIRS, JACCL_CANNOT_RUN, UNPAIRED_WIRE, MISSING_LINK, TOO_MANY_WIRES, MESH_TOO_LARGE, EMPTY_NAME,
            DIAGONAL_NOT_EMPTY, NOT_SQUARE, RING_NOT_A_CYCLE, EXTRA_WIRES_UNUSED, SHARED_SEGMENT, RDMA_DISABLED, BRIDGED_PORT,
            NO_IPV4, SLOW_THUNDERBOLT, BEHIND_HUB);
    /** The codes about a rank order over cables that both of MLX's backends check (jaccl, and the TCP ring: {@code MlxRingCheck}). */
    private static final Set<Code> MLX_CODES = EnumSet.of(ONE_RANK, NEEDS_NEWER_MLX, OVERRIDDEN_BY_ENVS, NOT_A_CABLE, LINK_DOWN,
            UNEQUAL_RING_WIRES, CABLE_LEFT_OUT);
    /** The codes about MLX's TCP ring hostfile alone. */
    private static final Set<Code> MLX_RING_CODES = EnumSet.of(SHARED_SUBNET, UNKNOWN_ADDRESS, SAME_CABLE_TWICE);
    /** The codes about a switched fabric's rails and the settings of the libraries that stripe over them. */
    private static final Set<Code> RAIL_CODES = EnumSet.of(CROSS_RAIL, RAIL_MISSING, TWO_NICS_ONE_RAIL, MIXED_RATES_ON_RAIL,
            UNKNOWN_FAR_END, MIXED_GID_INDEX, UNKNOWN_HCA, WRONG_RAIL_ID, RENUMBERED_RAIL_ID, SIDE_NIC_IN_LIST, WRONG_GID_INDEX,
            SUBNET_ROUTING_OFF, LIST_LIMIT, UNLISTABLE_NAME);

    /**
     * The consumers a finding of this code concerns: jaccl alone for its matrix, direct cables and launch
     * readiness; jaccl and MLX's TCP ring for a rank order over cables both check; the TCP ring alone for its
     * hostfile's addresses; the rail libraries ({@link Consumer#RAIL_LIBRARIES}) for a
     * switched fabric's rails and their settings; every consumer for the rest (a one-sided or disputed
     * observation, an impostor, a stale config, a setting or file every reader misreads, a running job).
     * Which findings a view shows is {@link io.railmap.matrix.check.ConsumerScope}'s.
     *
     * @return a non-empty, unmodifiable set
     */
    public Set<Consumer> consumers() {
        if (JACCL_CODES.contains(this)) {
            return Consumer.JACCL_ONLY;
        }
        if (MLX_CODES.contains(this)) {
            return Consumer.MLX;
        }
        if (MLX_RING_CODES.contains(this)) {
            return Consumer.MLX_RING_ONLY;
        }
        return RAIL_CODES.contains(this) ? Consumer.RAIL_LIBRARIES : Consumer.EVERY;
    }

    /** @return the JSON value, e.g. {@code "mismatched-rail"} */
    @JsonValue
    public String externalName() {
        return EnumNames.of(this);
    }
}
