package io.railmap.discovery.model;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * One port this node discovered: the matrix {@link Port}, with no neighbours yet (the link probe
 * finds those), and the facts about its netdev that the probe needs and a {@code Port} does not
 * carry.
 *
 * @param port    the port; its {@code neighbours} are empty
 * @param mac     the netdev's hardware address, lower case, bytes as two hex digits separated by
 *                {@code ':'} (6 bytes for Ethernet and Thunderbolt, 20 for IPoIB; 2 to 32). Linux: file
 *                {@code /sys/class/net/<if>/address}; macOS: the "Ethernet Address" line of
 *                {@code networksetup -listallhardwareports}. Empty when the source does not say.
 * @param mtu     the netdev's MTU in bytes (Linux {@code /sys/class/net/<if>/mtu}); empty when the
 *                source does not say (macOS)
 * @param ifindex the kernel's interface index (Linux {@code /sys/class/net/<if>/ifindex}); empty when
 *                the source does not say (macOS)
 * @param carrier true when a link is up under the netdev. Linux: {@code carrier} reads {@code 1};
 *                macOS: a peer host is linked to the Thunderbolt receptacle
 * @param gids    the RDMA port's used GID table entries, by index (Linux only); empty for a port
 *                without RDMA and on macOS
 */
public record LocalPort(
        Port port,
        Optional<String> mac,
        OptionalInt mtu,
        OptionalInt ifindex,
        boolean carrier,
        List<Gid> gids) {
    /** Hex bytes separated by ':', 2 to 32 of them (Linux's MAX_ADDR_LEN). */
    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){1,31}");

    /**
     * Normalises the address to lower case and sorts the GIDs by index.
     *
     * @throws IllegalArgumentException when the port already has neighbours, the address is not
     *                                  2 to 32 colon-separated hex bytes, the MTU or ifindex is below 1, two
     *                                  GIDs share an index, or a port without RDMA has GIDs
     * @throws NullPointerException     when a component is null
     */
    public LocalPort {
        Objects.requireNonNull(port, "port");
        String where = "port " + Names.escape(port.ref().toString(), Quote.PATH_CHARS);
        if (!port.neighbours().isEmpty()) {
            throw new IllegalArgumentException(where + ": a discovered port has no neighbours yet");
        }
        mac = mac.map(m -> m.toLowerCase(Locale.ROOT));
        mac.ifPresent(m -> {
            if (!MAC.matcher(m).matches()) {
                throw new IllegalArgumentException(where + ": hardware address " + Quote.value(m)
                        + " is not 2 to 32 hex bytes separated by ':'");
            }
        });
        mtu.ifPresent(m -> requirePositive(where, "MTU", m));
        ifindex.ifPresent(i -> requirePositive(where, "ifindex", i));
        gids = gids.stream().sorted(Comparator.comparingInt(Gid::index)).toList();
        if (gids.stream().map(Gid::index).distinct().count() != gids.size()) {
            throw new IllegalArgumentException(where + ": two GIDs share an index");
        }
        if (!gids.isEmpty() && port.rdma().isEmpty()) {
            throw new IllegalArgumentException(where + ": GIDs without an RDMA device");
        }
    }

    private static void requirePositive(String where, String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(where + ": " + what + " " + value + " is below 1");
        }
    }
}
