package io.railmap.discovery;

import io.railmap.matrix.model.Names;
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

    /** @return true when every digit is 0: an unused table entry */
    public boolean isZero() {
        return address.chars().allMatch(c -> c == '0' || c == ':');
    }
}
