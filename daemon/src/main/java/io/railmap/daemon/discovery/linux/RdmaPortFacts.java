package io.railmap.daemon.discovery.linux;

import io.railmap.daemon.discovery.Gid;
import io.railmap.daemon.discovery.SkipException;
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
 * @param state    from {@code state} ({@code 4: ACTIVE}), mapped by {@link io.railmap.daemon.discovery.IbPortState}
 * @param kind     from {@code link_layer}: {@code InfiniBand} → infiniband, {@code Ethernet} → roce
 * @param rateGbps from {@code rate} ({@code 400 Gb/sec (4X NDR)} → 400.0), only while
 *                 {@code phys_state} reads {@code 5: LinkUp}: a port without a physical link still
 *                 shows a rate (such as 40 on a disabled 200 Gb/s port) that describes no link.
 *                 Empty when the link is not up or {@code rate}/{@code phys_state} is missing or
 *                 unreadable.
 * @param gids     the used (non-zero) entries of {@code gids/<i>}, with types from
 *                 {@code gid_attrs/types/<i>}; unreadable entries are left out
 */
record RdmaPortFacts(PortState state, PortKind kind, Optional<Double> rateGbps, List<Gid> gids) {

    /**
     * @param dir {@code /sys/class/infiniband/<hca>/ports/<n>}
     * @throws SkipException when {@code state} or {@code link_layer} is missing or unreadable, or any
     *                       file read holds an odd value
     */
    static RdmaPortFacts read(Path dir) throws SkipException {
        Path stateFile = dir.resolve("state");
        PortState state = SysfsFiles.parse(stateFile, SysfsFiles.required(stateFile), SysfsFormats::ibState);
        Path linkLayerFile = dir.resolve("link_layer");
        PortKind kind = SysfsFiles.parse(linkLayerFile, SysfsFiles.required(linkLayerFile), SysfsFormats::linkLayer);

        Path physFile = dir.resolve("phys_state");
        Optional<String> phys = SysfsFiles.optional(physFile);
        boolean linkUp = phys.isPresent() && SysfsFiles.parse(physFile, phys.get(), SysfsFormats::physLinkUp);
        Path rateFile = dir.resolve("rate");
        Optional<String> rateText = linkUp ? SysfsFiles.optional(rateFile) : Optional.empty();
        Optional<Double> rate = rateText.isEmpty()
                ? Optional.empty()
                : Optional.of(SysfsFiles.parse(rateFile, rateText.get(), SysfsFormats::rateGbps));
        return new RdmaPortFacts(state, kind, rate, gids(dir));
    }

    private static List<Gid> gids(Path portDir) throws SkipException {
        Path table = portDir.resolve("gids");
        if (!Files.isDirectory(table)) {
            return List.of();
        }
        List<Path> entries;
        try {
            entries = SysfsFiles.entries(table);
        } catch (IOException e) {
            throw new SkipException("cannot list " + table + ": " + e.getMessage());
        }
        List<Gid> gids = new ArrayList<>();
        for (Path entry : entries) {
            String name = SysfsFiles.name(entry);
            int index = SysfsFiles.parse(entry, name, SysfsFormats::nonNegative);
            Optional<String> text = SysfsFiles.optional(entry);
            if (text.isEmpty()) {
                continue;
            }
            Optional<String> type = SysfsFiles.optional(portDir.resolve("gid_attrs/types/" + name)).filter(t -> !t.isEmpty());
            Gid gid = SysfsFiles.parse(entry, text.get(), t -> new Gid(index, t, type));
            if (!gid.isZero()) {
                gids.add(gid);
            }
        }
        return gids;
    }
}
