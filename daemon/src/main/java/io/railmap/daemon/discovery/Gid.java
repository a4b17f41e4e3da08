package io.railmap.daemon.discovery;

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
    private static final Pattern ADDRESS = Pattern.compile("[0-9a-f]{4}(:[0-9a-f]{4}){7}");

    /** Normalises the address to lower case. @throws IllegalArgumentException on a negative index or an odd address */
    public Gid {
        if (index < 0) {
            throw new IllegalArgumentException("GID index " + index + " is negative");
        }
        address = address.toLowerCase(Locale.ROOT);
        if (!ADDRESS.matcher(address).matches()) {
            throw new IllegalArgumentException("GID \"" + address
                    + "\" is not eight groups of four hex digits separated by ':'");
        }
        Objects.requireNonNull(type, "type");
    }

    /** @return true when every digit is 0: an unused table entry */
    public boolean isZero() {
        return address.chars().allMatch(c -> c == '0' || c == ':');
    }
}
