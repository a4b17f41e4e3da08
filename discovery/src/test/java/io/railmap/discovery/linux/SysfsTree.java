package io.railmap.discovery.linux;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a sysfs tree under a test directory with the real layout: devices live under
 * {@code sys/devices/pci0000:00/<pci>/{infiniband,net}/<name>} (or {@code sys/devices/virtual/net}),
 * {@code sys/class/infiniband/<hca>} and {@code sys/class/net/<if>} are relative symlinks to them,
 * and {@code <hca>/device} links back to the PCI function.
 */
public final class SysfsTree {
    private final Path root;
    private int nextIfindex = 1;

    public SysfsTree(Path root) {
        this.root = root;
        mkdirs(root.resolve("sys/class/net"));
    }

    public Path root() {
        return root;
    }

    /**
     * @param name a file of {@code src/test/resources/fixtures/linux}, such as {@code thunderbolt_xdomain_mac_peer.tree}
     * @return its text
     */
    public static String fixture(String name) {
        try (java.io.InputStream in = SysfsTree.class.getResourceAsStream("/fixtures/linux/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture linux/" + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Builds a tree from a fixture's lines: {@code <path> = <value>} writes the file with a trailing
     * newline, {@code <path> -> <target>} makes a symlink; blank lines and lines starting with
     * {@code #} are skipped. Paths are relative to the root.
     *
     * @throws IllegalArgumentException on a line of neither form
     */
    public SysfsTree load(String fixture) {
        for (String line : fixture.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int link = line.indexOf(" -> ");
            int file = line.indexOf(" = ");
            if (link > 0) {
                Path at = root.resolve(line.substring(0, link));
                mkdirs(at.getParent());
                symlink(at, Path.of(line.substring(link + 4)));
            } else if (file > 0) {
                Path at = root.resolve(line.substring(0, file));
                write(at.getParent(), at.getFileName().toString(), line.substring(file + 3));
            } else {
                throw new IllegalArgumentException("fixture line is neither \"<path> = <value>\" nor \"<path> -> <target>\": " + line);
            }
        }
        return this;
    }

    /** An HCA on PCI function {@code pci} (such as {@code 0000:1a:00.0}); returns its class path. */
    public Path hca(String name, String pci) {
        Path function = pciFunction(pci);
        Path dir = mkdirs(function.resolve("infiniband/" + name));
        symlink(dir.resolve("device"), dir.relativize(function));
        Path link = mkdirs(root.resolve("sys/class/infiniband")).resolve(name);
        symlink(link, link.getParent().relativize(dir));
        mkdirs(dir.resolve("ports"));
        return link;
    }

    /** Port {@code n} of an HCA with its {@code state}, {@code phys_state} and {@code link_layer} files; returns its directory. */
    public Path port(String hca, int n, String state, String physState, String linkLayer) {
        Path dir = mkdirs(root.resolve("sys/class/infiniband/" + hca + "/ports/" + n));
        write(dir, "state", state);
        write(dir, "phys_state", physState);
        write(dir, "link_layer", linkLayer);
        return dir;
    }

    /** A GID table entry, with its type and netdev as RoCE ports have them (null leaves one out). */
    public void gid(String hca, int n, int index, String gid, String type, String netdev) {
        Path port = root.resolve("sys/class/infiniband/" + hca + "/ports/" + n);
        write(port.resolve("gids"), String.valueOf(index), gid);
        if (type != null) {
            write(port.resolve("gid_attrs/types"), String.valueOf(index), type);
        }
        if (netdev != null) {
            write(port.resolve("gid_attrs/ndevs"), String.valueOf(index), netdev);
        }
    }

    /**
     * A netdev on PCI function {@code pci} ({@code null}: a virtual device) with {@code operstate},
     * {@code carrier} (null: no file), {@code address}, {@code mtu}, the next {@code ifindex} and an
     * equal {@code iflink}; returns its class path.
     */
    public Path netdev(String name, String pci, String operstate, String carrier, String address, int mtu) {
        Path parent = pci == null ? root.resolve("sys/devices/virtual/net") : pciFunction(pci).resolve("net");
        Path dir = mkdirs(parent.resolve(name));
        write(dir, "operstate", operstate);
        if (carrier != null) {
            write(dir, "carrier", carrier);
        }
        write(dir, "address", address);
        write(dir, "mtu", String.valueOf(mtu));
        int ifindex = nextIfindex++;
        write(dir, "ifindex", String.valueOf(ifindex));
        write(dir, "iflink", String.valueOf(ifindex));
        Path link = root.resolve("sys/class/net/" + name);
        symlink(link, link.getParent().relativize(dir));
        return link;
    }

    /**
     * Makes netdev {@code name} a port of bridge {@code bridge}, as the kernel shows it: a
     * {@code brport} directory and a {@code master} link to the bridge's directory. A null bridge
     * makes only {@code brport}.
     */
    public void bridgePort(String name, String bridge) {
        Path dir = root.resolve("sys/class/net/" + name);
        mkdirs(dir.resolve("brport"));
        if (bridge != null) {
            master(name, bridge);
        }
    }

    /** A {@code master} link from netdev {@code name} to {@code upper} (a bridge, a bond, a VRF), as {@code ../upper}. */
    public void master(String name, String upper) {
        Path dir = root.resolve("sys/class/net/" + name);
        symlink(dir.resolve("master"), Path.of("..", upper));
    }

    /**
     * A Thunderbolt XDomain {@code name} under the directory {@code parent} (relative to the root; its
     * host router's or a device's), with its {@code unique_id}, a {@code network} service
     * {@code <name>.1} carrying netdev {@code netdev} ({@code operstate}; {@code carrier} 1 when up),
     * and the bus and class links, as thunderbolt-net lays them out.
     */
    public void xdomain(String parent, String name, String uniqueId, String netdev, String operstate) {
        String xd = parent + "/" + name;
        String devices = xd.substring("sys/devices/".length());
        load(String.join("\n",
                xd + "/uevent = DEVTYPE=thunderbolt_xdomain",
                xd + "/unique_id = " + uniqueId,
                xd + "/" + name + ".1/key = network",
                xd + "/" + name + ".1/net/" + netdev + "/operstate = " + operstate,
                xd + "/" + name + ".1/net/" + netdev + "/carrier = " + (operstate.equals("up") ? "1" : "0"),
                "sys/bus/thunderbolt/devices/" + name + " -> ../../../devices/" + devices,
                "sys/bus/thunderbolt/devices/" + name + ".1 -> ../../../devices/" + devices + "/" + name + ".1",
                "sys/class/net/" + netdev + " -> ../../devices/" + devices + "/" + name + ".1/net/" + netdev));
    }

    /** Writes {@code file}, or removes it when {@code content} is null (a fuzz input that is absent). */
    public static void writeOrRemove(Path file, byte[] content) {
        try {
            if (content == null) {
                Files.deleteIfExists(file);
            } else {
                Files.createDirectories(file.getParent());
                Files.write(file, content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes {@code path} and, for a directory that is no symlink, all below it. */
    public static void delete(Path path) {
        try (java.util.stream.Stream<Path> files = Files.isSymbolicLink(path) ? java.util.stream.Stream.of(path) : Files.walk(path)) {
            for (Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code dir/name} with a trailing newline, as sysfs prints it. */
    public void write(Path dir, String name, String value) {
        try {
            Files.writeString(mkdirs(dir).resolve(name), value + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes {@code dir/name} exist but fail to read, as {@code carrier} and {@code speed} do
     * ({@code EINVAL}) on a real netdev without carrier: a directory in place of the file.
     */
    public void unreadable(Path dir, String name) {
        try {
            Files.deleteIfExists(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        mkdirs(dir.resolve(name));
    }

    private Path pciFunction(String pci) {
        return mkdirs(root.resolve("sys/devices/pci0000:00/" + pci));
    }

    private static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void symlink(Path link, Path target) {
        try {
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
