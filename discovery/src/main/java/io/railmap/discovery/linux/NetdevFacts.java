package io.railmap.discovery.linux;

import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * What {@code /sys/class/net/<if>/} says about one netdev.
 *
 * @param operUp    {@code operstate} is {@code up} or {@code unknown}
 * @param carrier   {@code carrier} reads 1; false when it reads 0 or has no value (the kernel
 *                  answers {@code EINVAL} while the netdev is administratively down)
 * @param mac       {@code address}, lower case; empty when the file is empty, has no value or an
 *                  odd one
 * @param mtu       {@code mtu}, in bytes; empty when it has no value or an odd one
 * @param ifindex   {@code ifindex}; empty when it has no value or an odd one
 * @param speedGbps {@code speed} (Mb/s) in Gb/s; empty when the driver does not know (-1), when
 *                  the file has no value (no carrier: {@code EINVAL}) or an odd one, and whenever
 *                  there is no carrier, since a rate without a link means nothing
 * @param bridge    the bridge the netdev is a port of: the name {@code master} links to, when
 *                  {@code brport} exists (a bond's or VRF's {@code master} has no {@code brport});
 *                  empty when it is in no bridge, or {@code master} is missing or names no netdev
 * @param notes     the fields dropped to unknown, each {@code "<field> unknown: <file>: <what is wrong>"}
 */
record NetdevFacts(boolean operUp, boolean carrier, Optional<String> mac, OptionalInt mtu, OptionalInt ifindex,
                   Optional<Double> speedGbps, Optional<String> bridge, List<String> notes) {

    /**
     * Reads one netdev's directory. {@code operstate} is required; {@code carrier} must be 0 or 1
     * when it has a value; the other files, and the {@code brport} directory and {@code master}
     * link, are optional.
     *
     * @param dir {@code /sys/class/net/<if>} (a symlink on real Linux; followed)
     * @throws SkipException when there is no such directory, {@code operstate} has no value or an
     *                       odd one, or {@code carrier} has an odd value
     */
    static NetdevFacts read(Path dir) throws SkipException {
        if (!Files.isDirectory(dir)) {
            throw new SkipException("no netdev directory " + Quote.path(dir));
        }
        Path operstate = dir.resolve("operstate");
        boolean operUp = SysfsFiles.parse(operstate, SysfsFiles.required(operstate), SysfsFormats::operUp);
        Path carrierFile = dir.resolve("carrier");
        Optional<String> carrierText = SysfsFiles.optional(carrierFile);
        boolean carrier = carrierText.isPresent() && SysfsFiles.parse(carrierFile, carrierText.get(), SysfsFormats::carrier);
        List<String> notes = new ArrayList<>();
        Optional<String> mac = optional(dir, "address", "hardware address", SysfsFormats::hardwareAddress, notes).flatMap(a -> a);
        Optional<Integer> mtu = optional(dir, "mtu", "MTU", SysfsFormats::positive, notes);
        Optional<Integer> ifindex = optional(dir, "ifindex", "ifindex", SysfsFormats::positive, notes);
        Optional<Double> speed = carrier
                ? optional(dir, "speed", "rate", SysfsFormats::speedGbps, notes).flatMap(s -> s)
                : Optional.empty();
        Optional<String> bridge = bridge(dir, notes);
        return new NetdevFacts(operUp, carrier, mac, mtu.map(OptionalInt::of).orElse(OptionalInt.empty()),
                ifindex.map(OptionalInt::of).orElse(OptionalInt.empty()), speed, bridge, notes);
    }

    /** The bridge of a bridge port: {@code master}'s link target's last element; an odd one is unknown and a note. */
    private static Optional<String> bridge(Path dir, List<String> notes) {
        if (!Files.isDirectory(dir.resolve("brport"))) {
            return Optional.empty();
        }
        Path master = dir.resolve("master");
        try {
            Path target = Files.readSymbolicLink(master);
            String name = target.getFileName() == null ? "" : target.getFileName().toString();
            return Optional.of(Names.plain("bridge", name));
        } catch (IOException | UnsupportedOperationException e) {
            notes.add("bridge unknown: " + Quote.path(master) + ": a bridge port without a readable master link");
        } catch (IllegalArgumentException e) {
            notes.add("bridge unknown: " + Quote.path(master) + ": " + Names.escape(e.getMessage(), Quote.PATH_CHARS));
        }
        return Optional.empty();
    }

    /**
     * The state of a netdev taken on its own (no RDMA device): {@link PortState#ACTIVE} when it has
     * carrier and its operstate is {@code up} or {@code unknown}, else {@link PortState#DOWN}.
     */
    PortState plainState() {
        return carrier && operUp ? PortState.ACTIVE : PortState.DOWN;
    }

    /** An optional file: no value is empty; an odd value is empty and a note. */
    private static <T> Optional<T> optional(Path dir, String name, String field, Function<String, T> parser,
                                            List<String> notes) {
        Path file = dir.resolve(name);
        try {
            Optional<String> text = SysfsFiles.optional(file);
            return text.isEmpty() ? Optional.empty() : Optional.of(SysfsFiles.parse(file, text.get(), parser));
        } catch (SkipException e) {
            notes.add(field + " unknown: " + e.getMessage());
            return Optional.empty();
        }
    }
}
