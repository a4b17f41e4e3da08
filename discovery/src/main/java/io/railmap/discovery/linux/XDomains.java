package io.railmap.discovery.linux;

import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Thunderbolt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * This host's Thunderbolt/USB4 host-to-host links, from {@code /sys/bus/thunderbolt/devices}
 * (Documentation/ABI/testing/sysfs-bus-thunderbolt), each with the netdev and RDMA devices that run
 * over it.
 *
 * <ul>
 *   <li><b>Links</b>: an entry named {@code <domain>-<route in hex>} (dev_set_name in
 *       drivers/thunderbolt/xdomain.c {@code tb_xdomain_alloc}) with a non-zero route whose
 *       {@code uevent} has the line {@code DEVTYPE=thunderbolt_xdomain} (a router's says
 *       {@code thunderbolt_device}; {@code tb_xdomain_type} in xdomain.c). Its {@code unique_id} is the
 *       peer host's UUID ({@code remote_uuid}); this end's is the host router's
 *       {@code <domain>-0/unique_id}, the UUID the kernel answers the peer's UUID request with
 *       ({@code tb_xdp_handle_request}: {@code tb->root_switch->uuid}).</li>
 *   <li><b>Netdev</b>: thunderbolt-net binds the XDomain's service whose {@code key} is
 *       {@code network} (drivers/net/thunderbolt/main.c {@code tbnet_ids}) and parents its netdev
 *       ({@code thunderbolt%d}) on that service ({@code tbnet_probe}: {@code SET_NETDEV_DEV}), so the
 *       netdev is the one entry of {@code <domain>-<route>.<n>/net/}.</li>
 *   <li><b>Speed</b>: {@code rx_speed} (one lane, {@code "20.0 Gb/s"}) times the lanes, the fewer of
 *       {@code rx_lanes} and {@code tx_lanes} (an asymmetric link counts its narrow side).</li>
 *   <li><b>Receptacle</b>: the host router's physical port, 1-based, from the route's first hop as
 *       thunderbolt-net numbers it for its MAC address ({@code tbnet_generate_mac}:
 *       {@code tb_phy_port_from_link(route & 0x3f)}, which is {@code (link - 1) / 2} in
 *       include/linux/thunderbolt.h); a route of more than one hop (above {@code 0xff}) is a peer
 *       behind a hub or dock.</li>
 *   <li><b>RDMA</b>: thunderbolt-ibverbs names its verbs devices {@code usb4_rdma<i>} with
 *       {@code i = domain × 5 + slot} (kernel/ibdev.c {@code tbv_ibdev_rail_name_index}: slot 0–3 a
 *       native lane, 4 a Mac peer; {@code TBV_NATIVE_MAX_LANES} 4 in kernel/tbv.h) and parents them on
 *       the host interface ({@code tbv_ibdev_register_one}: {@code tb_ring_dma_device}), the device a
 *       domain hangs from. Its GID netdev is a module parameter ({@code roce_netdev}, such as a dummy
 *       {@code ardma0}), not the XDomain's netdev, so a device is tied by its domain: the
 *       {@code usb4_rdma} devices of a domain with exactly one XDomain run over that link, and only
 *       when their {@code device} link and the domain's parent are the same directory, where both
 *       resolve. In a domain with several XDomains nothing in sysfs says which device serves which
 *       link: none is tied, with a note.</li>
 * </ul>
 * An XDomain whose files are missing, too long or odd, or that has no thunderbolt-net netdev, is
 * skipped with the reason; the others are read.
 */
final class XDomains {
    /** Verbs device names per domain: {@code TBV_NATIVE_MAX_LANES + 1} (thunderbolt-ibverbs kernel/ibdev.c). */
    static final int RDMA_DEVICES_PER_DOMAIN = 5;
    private static final Pattern NAME = Pattern.compile("(\\d{1,9})-([0-9a-f]{1,16})");
    /** A service of an XDomain: {@code <xdomain>.<id>} (dev_set_name in xdomain.c {@code enumerate_services}). */
    private static final Pattern SERVICE = Pattern.compile("(\\d{1,9}-[0-9a-f]{1,16})\\.\\d{1,9}");
    private static final Pattern RDMA = Pattern.compile("usb4_rdma(\\d{1,9})");
    private static final String XDOMAIN_TYPE = "DEVTYPE=thunderbolt_xdomain";
    /** The key of thunderbolt-net's service ({@code TB_SERVICE("network", 1)}). */
    private static final String NETWORK_SERVICE = "network";
    private static final long FIRST_HOP = 0x3f;
    private static final long ONE_HOP = 0xff;

    /**
     * One host-to-host link.
     *
     * @param netdev      its thunderbolt-net netdev
     * @param thunderbolt the link's facts ({@link Thunderbolt#xdomain()} names the XDomain)
     * @param rdma        the {@code usb4_rdma} devices that run over it, in name order; the port takes the first
     * @param notes       what was dropped to unknown or left untied, as sentences naming the file
     */
    record Link(String netdev, Thunderbolt thunderbolt, List<String> rdma, List<String> notes) {
        Link {
            rdma = List.copyOf(rdma);
            notes = List.copyOf(notes);
        }
    }

    private XDomains() {
    }

    /**
     * @param root  the directory holding {@code sys/}
     * @param found where skipped XDomains and unlistable directories are told
     * @return the links by netdev; empty when there is no {@code sys/bus/thunderbolt/devices}
     */
    static Map<String, Link> read(Path root, Discovery.Builder found) {
        Path bus = root.resolve("sys/bus/thunderbolt/devices");
        if (!Files.isDirectory(bus)) {
            return Map.of();
        }
        List<Path> entries;
        try {
            entries = SysfsFiles.entries(bus);
        } catch (IOException e) {
            found.note("cannot list " + Quote.path(bus) + ": " + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS)
                    + ": no Thunderbolt links");
            return Map.of();
        }
        Map<Path, Matcher> xdomains = new LinkedHashMap<>();
        Map<Integer, Integer> perDomain = new HashMap<>();
        for (Path entry : entries) {
            Matcher m = NAME.matcher(SysfsFiles.name(entry));
            if (!m.matches() || Long.parseUnsignedLong(m.group(2), 16) == 0) {
                continue;
            }
            try {
                if (isXDomain(entry)) {
                    xdomains.put(entry, m);
                    perDomain.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
                }
            } catch (SkipException e) {
                // it may be an XDomain: its domain's RDMA devices are then not known to serve the others alone
                perDomain.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
                found.skip("thunderbolt " + SysfsFiles.name(entry), e.getMessage());
            }
        }
        Map<String, List<Path>> services = new HashMap<>();
        for (Path entry : entries) {
            Matcher m = SERVICE.matcher(SysfsFiles.name(entry));
            if (m.matches()) {
                services.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(entry);
            }
        }
        Map<Integer, List<String>> rdmaByDomain = rdmaByDomain(root);
        Map<String, Link> links = new TreeMap<>();
        Map<String, String> xdomainOf = new HashMap<>();
        for (Map.Entry<Path, Matcher> x : xdomains.entrySet()) {
            String name = SysfsFiles.name(x.getKey());
            int domain = Integer.parseInt(x.getValue().group(1));
            try {
                long route = Long.parseUnsignedLong(x.getValue().group(2), 16);
                Link link = link(root, bus, services.getOrDefault(name, List.of()), x.getKey(), domain, route,
                        rdmaByDomain.getOrDefault(domain, List.of()), perDomain.get(domain));
                String other = xdomainOf.putIfAbsent(link.netdev(), name);
                if (other != null) {
                    // two XDomains claim one netdev: neither is more likely right, so both go
                    if (links.remove(link.netdev()) != null) {
                        found.skip("xdomain " + other, "netdev " + Quote.value(link.netdev()) + " is also XDomain " + name + "'s");
                    }
                    throw new SkipException("netdev " + Quote.value(link.netdev()) + " is also XDomain " + other + "'s");
                }
                links.put(link.netdev(), link);
            } catch (SkipException e) {
                found.skip("xdomain " + name, e.getMessage());
            }
        }
        return links;
    }

    /** True when the entry's {@code uevent} has the line {@code DEVTYPE=thunderbolt_xdomain}. */
    private static boolean isXDomain(Path entry) throws SkipException {
        return SysfsFiles.optional(entry.resolve("uevent")).map(u -> u.lines().anyMatch(XDOMAIN_TYPE::equals)).orElse(false);
    }

    private static Link link(Path root, Path bus, List<Path> services, Path dir, int domain, long route, List<String> domainRdma,
                             int xdomainsInDomain) throws SkipException {
        String name = SysfsFiles.name(dir);
        Path remoteFile = dir.resolve("unique_id");
        String remote = SysfsFiles.parse(remoteFile, SysfsFiles.required(remoteFile), SysfsFormats::uuid);
        Path localFile = bus.resolve(domain + "-0/unique_id");
        String local = SysfsFiles.parse(localFile, SysfsFiles.required(localFile), SysfsFormats::uuid);
        if ((route & FIRST_HOP) == 0) {
            throw new SkipException("route " + Long.toHexString(route) + " of " + Quote.path(dir) + " has no first hop");
        }
        String netdev = netdev(services, name);
        List<String> notes = new ArrayList<>();
        Optional<Double> speed = speed(dir, notes);
        Optional<String> peerName = optional(dir.resolve("device_name"), "peer name", SysfsFormats::hostName, notes);
        int receptacle = (int) ((route & FIRST_HOP) - 1) / 2 + 1;
        Thunderbolt thunderbolt = new Thunderbolt(Optional.of(local), Optional.of(remote), receptacle, speed, route > ONE_HOP, peerName,
                Optional.of(name));
        return new Link(netdev, thunderbolt, rdma(root, bus, domain, domainRdma, xdomainsInDomain, notes), notes);
    }

    /** The netdev under the XDomain's {@code network} service (one of {@code services}, its {@code <xdomain>.<id>} entries): exactly one. */
    private static String netdev(List<Path> services, String xdomain) throws SkipException {
        List<String> netdevs = new ArrayList<>();
        for (Path service : services) {
            if (!SysfsFiles.optional(service.resolve("key")).filter(NETWORK_SERVICE::equals).isPresent()) {
                continue;
            }
            Path net = service.resolve("net");
            if (Files.isDirectory(net)) {
                try {
                    for (Path n : SysfsFiles.entries(net)) {
                        netdevs.add(SysfsFiles.parse(n, SysfsFiles.name(n), SysfsFormats::netdev));
                    }
                } catch (IOException e) {
                    throw new SkipException("cannot list " + Quote.path(net) + ": "
                            + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS));
                }
            }
        }
        if (netdevs.size() != 1) {
            throw new SkipException(netdevs.isEmpty()
                    ? "no thunderbolt-net netdev: no service of " + xdomain + " with key \"network\" has one under net/ (is thunderbolt-net loaded?)"
                    : "several thunderbolt-net netdevs " + netdevs.stream().map(Quote::value).toList());
        }
        return netdevs.get(0);
    }

    /** {@code rx_speed} times the narrower of {@code rx_lanes} and {@code tx_lanes}; unknown (with a note) when one is missing or odd. */
    private static Optional<Double> speed(Path dir, List<String> notes) {
        Optional<Double> lane = optional(dir.resolve("rx_speed"), "link speed", SysfsFormats::laneSpeedGbps, notes);
        Optional<Integer> rx = optional(dir.resolve("rx_lanes"), "link speed", SysfsFormats::lanes, notes);
        Optional<Integer> tx = optional(dir.resolve("tx_lanes"), "link speed", SysfsFormats::lanes, notes);
        if (lane.isEmpty() || rx.isEmpty() || tx.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(lane.get() * Math.min(rx.get(), tx.get()));
    }

    /** An optional attribute: no value is empty; an odd value is empty and a note. */
    private static <T> Optional<T> optional(Path file, String field, java.util.function.Function<String, T> parser, List<String> notes) {
        try {
            Optional<String> text = SysfsFiles.optional(file).filter(t -> !t.isEmpty());
            return text.isEmpty() ? Optional.empty() : Optional.of(SysfsFiles.parse(file, text.get(), parser));
        } catch (SkipException e) {
            notes.add(field + " unknown: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The {@code usb4_rdma} devices under {@code /sys/class/infiniband}, by the domain their name says, in name order. */
    private static Map<Integer, List<String>> rdmaByDomain(Path root) {
        Path ibClass = root.resolve("sys/class/infiniband");
        Map<Integer, List<String>> byDomain = new HashMap<>();
        if (!Files.isDirectory(ibClass)) {
            return byDomain;
        }
        try {
            for (Path dev : SysfsFiles.entries(ibClass)) {
                Matcher m = RDMA.matcher(SysfsFiles.name(dev));
                if (m.matches()) {
                    byDomain.computeIfAbsent(Integer.parseInt(m.group(1)) / RDMA_DEVICES_PER_DOMAIN, d -> new ArrayList<>())
                            .add(SysfsFiles.name(dev));
                }
            }
        } catch (IOException e) {
            return byDomain; // the port source notes the unlistable class directory itself
        }
        return byDomain;
    }

    /** The domain's devices when it has one XDomain and each device's parent is the domain's; notes for the rest. */
    private static List<String> rdma(Path root, Path bus, int domain, List<String> devices, int xdomainsInDomain, List<String> notes) {
        if (devices.isEmpty()) {
            return List.of();
        }
        if (xdomainsInDomain > 1) {
            notes.add("RDMA devices " + devices + " are on Thunderbolt domain " + domain + ", which has " + xdomainsInDomain
                    + " XDomains: sysfs does not say which link each serves, so none is this port's");
            return List.of();
        }
        Optional<Path> hostInterface = real(bus.resolve("domain" + domain)).map(Path::getParent);
        List<String> tied = new ArrayList<>();
        for (String device : devices) {
            Optional<Path> parent = real(root.resolve("sys/class/infiniband/" + device + "/device"));
            if (hostInterface.isPresent() && parent.isPresent() && !hostInterface.equals(parent)) {
                notes.add("RDMA device " + device + " is not this port's: its device " + Quote.path(parent.get())
                        + " is not the host interface of Thunderbolt domain " + domain + " " + Quote.path(hostInterface.get()));
            } else {
                tied.add(device);
            }
        }
        if (tied.size() > 1) {
            notes.add("RDMA devices " + tied.subList(1, tied.size()) + " also run over this link (thunderbolt-ibverbs lanes); the port names "
                    + tied.get(0));
        }
        return tied;
    }

    private static Optional<Path> real(Path path) {
        try {
            return Files.exists(path) ? Optional.of(path.toRealPath()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
