package io.railmap.discovery.linux;

import io.railmap.discovery.model.Gid;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code /sys/class/infiniband/<hca>/ports/<n>/} says about one RDMA port.
 *
 * @param state    from {@code state} ({@code 4: ACTIVE}), mapped by {@link io.railmap.discovery.model.IbPortState}
 * @param kind     from {@code link_layer}: {@code InfiniBand} → infiniband, {@code Ethernet} → roce
 * @param rateGbps from {@code rate} ({@code 400 Gb/sec (4X NDR)} → 400.0), only while
 *                 {@code phys_state} reads {@code 5: LinkUp}: a port without a physical link still
 *                 shows a rate (such as 40 on a disabled 200 Gb/s port) that describes no link.
 *                 Empty when the link is not up, or {@code rate} or {@code phys_state} has no value
 *                 or an odd one.
 * @param gids     the used (non-zero) entries of {@code gids/<i>}, with types from
 *                 {@code gid_attrs/types/<i>}; entries without a value or with an odd one are left
 *                 out, an odd type is left empty
 * @param notes    the fields dropped to unknown, each {@code "<field> unknown: <file>: <what is wrong>"}
 */
record RdmaPortFacts(PortState state, PortKind kind, Optional<Double> rateGbps, List<Gid> gids, List<String> notes) {
    /** Most GID table entries read (mlx5 has 256; the kernel's table is at most a few hundred). */
    static final int MAX_GIDS = 1024;

    /**
     * @param dir {@code /sys/class/infiniband/<hca>/ports/<n>}
     * @throws SkipException when {@code state} or {@code link_layer} has no value or an odd one
     */
    static RdmaPortFacts read(Path dir) throws SkipException {
        Path stateFile = dir.resolve("state");
        PortState state = SysfsFiles.parse(stateFile, SysfsFiles.required(stateFile), SysfsFormats::ibState);
        Path linkLayerFile = dir.resolve("link_layer");
        PortKind kind = SysfsFiles.parse(linkLayerFile, SysfsFiles.required(linkLayerFile), SysfsFormats::linkLayer);
        List<String> notes = new ArrayList<>();
        return new RdmaPortFacts(state, kind, rate(dir, notes), gids(dir, notes), notes);
    }

    private static Optional<Double> rate(Path dir, List<String> notes) {
        try {
            Path physFile = dir.resolve("phys_state");
            Optional<String> phys = SysfsFiles.optional(physFile);
            if (phys.isEmpty() || !SysfsFiles.parse(physFile, phys.get(), SysfsFormats::physLinkUp)) {
                return Optional.empty();
            }
            Path rateFile = dir.resolve("rate");
            Optional<String> rate = SysfsFiles.optional(rateFile);
            return rate.isEmpty() ? Optional.empty() : Optional.of(SysfsFiles.parse(rateFile, rate.get(), SysfsFormats::rateGbps));
        } catch (SkipException e) {
            notes.add("rate unknown: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static List<Gid> gids(Path portDir, List<String> notes) {
        Path table = portDir.resolve("gids");
        if (!Files.isDirectory(table)) {
            return List.of();
        }
        List<Path> entries;
        try {
            entries = SysfsFiles.entries(table);
        } catch (IOException e) {
            notes.add("GIDs unknown: cannot list " + Quote.path(table) + ": " + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS));
            return List.of();
        }
        if (entries.size() > MAX_GIDS) {
            notes.add("GIDs unknown: " + Quote.path(table) + " has " + entries.size() + " entries, more than " + MAX_GIDS);
            return List.of();
        }
        List<Gid> gids = new ArrayList<>();
        for (Path entry : entries) {
            try {
                gid(portDir, entry, notes).filter(g -> !g.isZero()).ifPresent(gids::add);
            } catch (SkipException e) {
                notes.add("GID unknown: " + e.getMessage());
            }
        }
        return gids;
    }

    /** One entry of the table; its type is dropped to unknown, with a note, when odd. */
    private static Optional<Gid> gid(Path portDir, Path entry, List<String> notes) throws SkipException {
        String name = SysfsFiles.name(entry);
        int index = SysfsFiles.parse(entry, name, SysfsFormats::nonNegative);
        Optional<String> text = SysfsFiles.optional(entry);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> type = type(portDir.resolve("gid_attrs/types/" + name), index, notes);
        return Optional.of(SysfsFiles.parse(entry, text.get(), t -> new Gid(index, t, type)));
    }

    private static Optional<String> type(Path file, int index, List<String> notes) {
        try {
            Optional<String> type = SysfsFiles.optional(file).filter(t -> !t.isEmpty());
            return type.isEmpty() ? type : Optional.of(SysfsFiles.parse(file, type.get(), Gid::requireType));
        } catch (SkipException e) {
            notes.add("type of GID " + index + " unknown: " + e.getMessage());
            return Optional.empty();
        }
    }
}
