package io.railmap.discovery.linux;

import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the netdev that carries an RDMA port. The device name ({@code mlx5_N}) says nothing about
 * it: numbering is not in PCI order and differs between identical hosts, so only sysfs links count.
 *
 * <ol>
 *   <li>The port's GID table: {@code ports/<n>/gid_attrs/ndevs/<i>} names the netdev of each used
 *       entry of a RoCE port; the first readable, non-empty entry in index order is taken (entry 0
 *       is the netdev's own link-local GID; later entries may belong to VLAN netdevs stacked on
 *       it). When that entry is not a netdev name (a NUL byte, a '/', 16 bytes or more), the port
 *       is skipped: no other entry is trusted to stand in for it.</li>
 *   <li>Else the HCA's PCI function: {@code device/net/} lists the netdevs of that function
 *       (IPoIB netdevs of InfiniBand ports live here). With several, those whose {@code dev_port}
 *       (0-based, missing means 0) is not {@code n - 1} are dropped, then those stacked on another
 *       netdev ({@code iflink} differs from {@code ifindex}, such as an IPoIB child {@code ib0.8001}).</li>
 * </ol>
 */
final class RdmaNetdevs {
    private RdmaNetdevs() {
    }

    /**
     * @param hcaDir     {@code /sys/class/infiniband/<hca>}
     * @param portNumber the port number {@code n}, at least 1
     * @return the netdev name
     * @throws SkipException when neither place names exactly one netdev
     */
    static String find(Path hcaDir, int portNumber) throws SkipException {
        Path ndevs = hcaDir.resolve("ports/" + portNumber + "/gid_attrs/ndevs");
        Optional<String> fromGids = fromGidTable(ndevs);
        if (fromGids.isPresent()) {
            return fromGids.get();
        }
        Path devNet = hcaDir.resolve("device/net");
        if (!Files.isDirectory(devNet)) {
            throw new SkipException("no netdev: no entry in " + Quote.path(ndevs) + " names one, and there is no "
                    + Quote.path(devNet));
        }
        List<String> candidates = names(devNet);
        if (candidates.size() > 1) {
            candidates = onPort(candidates, devNet, portNumber);
        }
        if (candidates.size() > 1) {
            List<String> unstacked = new ArrayList<>();
            for (String name : candidates) {
                Optional<String> ifindex = SysfsFiles.optional(devNet.resolve(name + "/ifindex"));
                if (ifindex.isPresent() && ifindex.equals(SysfsFiles.optional(devNet.resolve(name + "/iflink")))) {
                    unstacked.add(name);
                }
            }
            candidates = unstacked;
        }
        if (candidates.size() != 1) {
            throw new SkipException((candidates.isEmpty() ? "no netdev" : "several netdevs "
                    + candidates.stream().map(Quote::value).toList()) + " for port " + portNumber + " in " + Quote.path(devNet));
        }
        return candidates.get(0);
    }

    /** The first entry with a value, in index order; its value must be a netdev name. */
    private static Optional<String> fromGidTable(Path ndevs) throws SkipException {
        if (!Files.isDirectory(ndevs)) {
            return Optional.empty();
        }
        for (String entry : names(ndevs)) {
            Path file = ndevs.resolve(entry);
            Optional<String> netdev = SysfsFiles.optional(file).filter(s -> !s.isEmpty());
            if (netdev.isPresent()) {
                return Optional.of(SysfsFiles.parse(file, netdev.get(), SysfsFormats::netdev));
            }
        }
        return Optional.empty();
    }

    /** Keeps the netdevs whose {@code dev_port} (0-based; missing means 0) is {@code portNumber - 1}. */
    private static List<String> onPort(List<String> names, Path devNet, int portNumber) throws SkipException {
        String wanted = String.valueOf(portNumber - 1);
        List<String> kept = new ArrayList<>();
        for (String name : names) {
            if (SysfsFiles.optional(devNet.resolve(name + "/dev_port")).orElse("0").equals(wanted)) {
                kept.add(name);
            }
        }
        return kept;
    }

    private static List<String> names(Path dir) throws SkipException {
        try {
            return SysfsFiles.entries(dir).stream().map(SysfsFiles::name).toList();
        } catch (IOException e) {
            throw new SkipException("cannot list " + Quote.path(dir) + ": " + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS));
        }
    }
}
