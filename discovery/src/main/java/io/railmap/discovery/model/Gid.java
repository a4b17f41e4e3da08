package io.railmap.discovery.model;

import io.railmap.matrix.model.Names;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of an RDMA port's GID table (Linux {@code /sys/class/infiniband/<hca>/ports/<n>/gids/<i>},
 * its type from {@code gid_attrs/types/<i>}). A RoCE port's table mirrors the IP addresses of its
 * netdev; an InfiniBand port's entry 0 is the port's default GID.
 *
 * @param index   the entry's index in the table (the {@code <i>} above); at least 0
 * @param address the GID as sysfs writes it: eight groups of four hex digits, lower case
 *                ({@code fe80:0000:0000:0000:0e42:a1ff:fe40:29a0})
 * @param type    the GID type as sysfs writes it ({@code RoCE v2}, {@code IB/RoCE v1}); empty when
 *                the kernel does not say
 */
public record Gid(int index, String address, Optional<String> type) {
    /** Longest GID type taken ({@code IB/RoCE v1} has 10 characters). */
    static final int MAX_TYPE_CHARS = 32;
    private static final Pattern ADDRESS = Pattern.compile("[0-9a-f]{4}(:[0-9a-f]{4}){7}");

    /**
     * Normalises the address to lower case.
     *
     * @throws IllegalArgumentException on a negative index, an odd address, or a type that is empty,
     *                                  longer than {@value #MAX_TYPE_CHARS} characters or holds a
     *                                  control character
     */
    public Gid {
        if (index < 0) {
            throw new IllegalArgumentException("GID index " + index + " is negative");
        }
        address = address.toLowerCase(Locale.ROOT);
        Objects.requireNonNull(type, "type");
        type.ifPresent(Gid::requireType);
        if (!ADDRESS.matcher(address).matches()) {
            throw new IllegalArgumentException("GID " + Quote.value(address)
                    + " is not eight groups of four hex digits separated by ':'");
        }
    }

    /**
     * @param type a GID type as sysfs writes it
     * @return the type
     * @throws IllegalArgumentException when it is empty, longer than {@value #MAX_TYPE_CHARS}
     *                                  characters or holds a control character
     */
    public static String requireType(String type) {
        if (type.isEmpty() || Names.hasHidden(type) || type.length() > MAX_TYPE_CHARS) {
            throw new IllegalArgumentException("GID type " + Quote.value(type) + " is not 1 to " + MAX_TYPE_CHARS
                    + " printable characters");
        }
        return type;
    }

    /** The GID type sysfs writes for RoCE v2 ({@code drivers/infiniband/core/cache.c}, {@code gid_type_str}). */
    public static final String ROCE_V2 = "RoCE v2";
    /** The first six groups of an IPv4-mapped address, {@code ::ffff:a.b.c.d} (RFC 4291, 2.5.5.2). */
    private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:";

    /**
     * The entry NCCL_IB_GID_INDEX and UCX_IB_GID_INDEX should name on a RoCE port: the RoCE v2 GID
     * whose address is IPv4-mapped (routable over IPv4, as NCCL's own choice with its defaults
     * {@code NCCL_IB_ROCE_VERSION_NUM=2}, {@code NCCL_IB_ADDR_FAMILY=AF_INET}: NVIDIA/nccl
     * {@code src/transport/net_ib/connect.cc}, {@code ncclIbGetGidIndex}).
     *
     * @param gids a port's GID table entries
     * @return the lowest index of such an entry; empty when there is none
     */
    public static Optional<Integer> roceV2Ipv4Index(List<Gid> gids) {
        return gids.stream().filter(g -> g.type().filter(ROCE_V2::equals).isPresent() && g.address().startsWith(IPV4_MAPPED))
                .map(Gid::index).min(Integer::compare);
    }

    /** @return true when every digit is 0: an unused table entry */
    public boolean isZero() {
        return address.chars().allMatch(c -> c == '0' || c == ':');
    }
}
