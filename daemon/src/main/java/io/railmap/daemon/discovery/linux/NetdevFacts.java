package io.railmap.daemon.discovery.linux;

import io.railmap.daemon.discovery.SkipException;
import io.railmap.matrix.model.PortState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code /sys/class/net/<if>/} says about one netdev.
 *
 * @param operUp    {@code operstate} is {@code up} or {@code unknown}
 * @param carrier   {@code carrier} reads 1; false when it reads 0 or cannot be read (the kernel
 *                  answers {@code EINVAL} while the netdev is administratively down)
 * @param mac       {@code address}, lower case; empty when the file is empty
 * @param mtu       {@code mtu}, in bytes
 * @param ifindex   {@code ifindex}
 * @param speedGbps {@code speed} (Mb/s) in Gb/s; empty when the driver does not know (-1), when
 *                  the file cannot be read (no carrier: {@code EINVAL}) and whenever there is no
 *                  carrier, since a rate without a link means nothing
 */
record NetdevFacts(boolean operUp, boolean carrier, Optional<String> mac, int mtu, int ifindex,
                   Optional<Double> speedGbps) {

    /**
     * Reads one netdev's directory. {@code operstate}, {@code mtu} and {@code ifindex} must be
     * present; {@code address}, {@code carrier} and {@code speed} may be missing or unreadable.
     *
     * @param dir {@code /sys/class/net/<if>} (a symlink on real Linux; followed)
     * @throws SkipException when a required file is missing or unreadable, or any file read holds
     *                       an odd value
     */
    static NetdevFacts read(Path dir) throws SkipException {
        if (!Files.isDirectory(dir)) {
            throw new SkipException("no netdev directory " + dir);
        }
        boolean operUp = required(dir, "operstate", SysfsFormats::operUp);
        int mtu = required(dir, "mtu", SysfsFormats::positive);
        int ifindex = required(dir, "ifindex", SysfsFormats::positive);
        Optional<String> mac = optional(dir, "address", SysfsFormats::hardwareAddress).flatMap(a -> a);
        boolean carrier = optional(dir, "carrier", SysfsFormats::carrier).orElse(false);
        Optional<Double> speed = carrier
                ? optional(dir, "speed", SysfsFormats::speedGbps).flatMap(s -> s)
                : Optional.empty();
        return new NetdevFacts(operUp, carrier, mac, mtu, ifindex, speed);
    }

    /**
     * The state of a netdev taken on its own (no RDMA device): {@link PortState#ACTIVE} when it has
     * carrier and its operstate is {@code up} or {@code unknown}, else {@link PortState#DOWN}.
     */
    PortState plainState() {
        return carrier && operUp ? PortState.ACTIVE : PortState.DOWN;
    }

    private static <T> T required(Path dir, String name, java.util.function.Function<String, T> parser)
            throws SkipException {
        Path file = dir.resolve(name);
        return SysfsFiles.parse(file, SysfsFiles.required(file), parser);
    }

    private static <T> Optional<T> optional(Path dir, String name, java.util.function.Function<String, T> parser)
            throws SkipException {
        Path file = dir.resolve(name);
        Optional<String> text = SysfsFiles.optional(file);
        return text.isEmpty() ? Optional.empty() : Optional.of(SysfsFiles.parse(file, text.get(), parser));
    }
}
