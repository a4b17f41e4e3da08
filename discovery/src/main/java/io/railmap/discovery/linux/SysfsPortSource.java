package io.railmap.discovery.linux;

import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.IbvDevinfo;
import io.railmap.discovery.model.Gid;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.PortAddresses;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.Thunderbolt;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Discovers a Linux node's ports from sysfs.
 *
 * <p><b>RDMA ports</b>: every {@code /sys/class/infiniband/<hca>/ports/<n>} is a port, kind
 * {@code infiniband} or {@code roce} after its {@code link_layer}, rate from {@code rate} (see
 * {@link RdmaPortFacts}), state from the {@code state} file ({@code 1: DOWN} → down, {@code 2: INIT}
 * → init, {@code 3: ARMED} → armed, {@code 4: ACTIVE} → active, {@code 0: NOP} and
 * {@code 5: ACTIVE_DEFER} → unknown; any other value skips the port). Its netdev
 * is found through sysfs links ({@link RdmaNetdevs}), and the netdev's {@code /sys/class/net/<if>}
 * gives address, MTU, ifindex and carrier. An RDMA port is left out only when an exclude entry
 * ({@code !glob}) of the {@link InterfaceSelection} matches its HCA or netdev name; its netdev is
 * then not taken as a plain netdev either.
 *
 * <p><b>Plain netdevs</b>: an entry of {@code /sys/class/net} that carries no RDMA port is a port of
 * kind {@code ethernet} when the selection includes it; state {@code active} when {@code carrier}
 * reads 1 and {@code operstate} is {@code up} or {@code unknown}, else {@code down}; rate from
 * {@code speed} (Mb/s) while there is carrier, unknown otherwise (the kernel answers {@code EINVAL}
 * without carrier, {@code -1} when the driver does not know).
 *
 * <p><b>RDMA device limits</b>: the kernel keeps a device's {@code max_qp}, {@code max_pd},
 * {@code max_mr} and {@code max_cqe} out of sysfs ({@code /sys/class/infiniband/<hca>} holds
 * {@code node_guid}, {@code fw_ver}, {@code board_id} and the like; the limits are answered by the
 * {@code IB_USER_VERBS_CMD_QUERY_DEVICE} verb), so on the live system they come from one run of
 * {@code ibv_devinfo -v} ({@link VerbsLimits}), each device's on each of its ports; unknown when the
 * program is missing or fails (with a note), and when reading a sysfs tree. A lab's veths have no
 * verbs device, so no limits.
 *
 * <p><b>Thunderbolt host-to-host links</b> (XDomains, {@link XDomains}): the thunderbolt-net netdev of
 * each is a port of kind {@code thunderbolt} with the link's {@link Thunderbolt} facts (this end's and
 * the peer host's domain UUIDs, which pair the cable without any IP path), its speed as the rate, and
 * the {@code usb4_rdma} verbs device that runs over it, if one is tied to it, as its RDMA device; those
 * devices are then no RDMA ports of their own. Taken like RDMA ports, whatever the include entries say.
 * An RDMA port whose netdev is such a netdev gets the link's facts too.
 *
 * <p>Every port: its bridge from {@code /sys/class/net/<if>/master} when {@code brport} is there
 * ({@link NetdevFacts}); its IP addresses, on the live system only ({@link #live}), from the JDK's
 * interface list of the namespace the process runs in ({@link PortAddresses}), and unknown when
 * reading a sysfs tree, which holds no addresses. A netdev without an RDMA port that the
 * {@link AssumedRdma} rule selects is given the RDMA device {@code rdma_<netdev>} (labs and tests).
 *
 * <p>A port whose required files are missing, unreadable or odd is skipped with the reason; only a
 * missing or unlistable {@code /sys/class/net} fails the whole discovery. A missing
 * {@code /sys/class/infiniband} means no RDMA ports. Entries are followed through symlinks, as on real
 * Linux every {@code /sys/class/*} entry is a symlink into {@code /sys/devices}.
 */
public final class SysfsPortSource implements PortSource {
    private final String node;
    private final Path root;
    private final InterfaceSelection selection;
    private final AssumedRdma assumed;
    /** True on the live system: addresses come from the JDK. */
    private final boolean live;
    /** The RDMA devices' limits, when asked ({@link VerbsLimits}); a sysfs tree has none to ask. */
    private final Optional<VerbsLimits> verbs;
    /**
     * The limits last read, with the RDMA devices they were read for: a device's limits are fixed for its life, so
     * {@code ibv_devinfo -v} (which opens every device) runs again only when the set of devices changes or the last
     * run gave nothing. Written by the one thread that discovers.
     */
    private volatile Optional<LimitsRead> limitsRead = Optional.empty();

    /** What one run of {@code ibv_devinfo -v} gave for a set of devices, with the notes it made (each discovery repeats them). */
    private record LimitsRead(Set<String> devices, IbvDevinfo limits, List<String> notes) {
    }

    private SysfsPortSource(String node, Path root, InterfaceSelection selection, AssumedRdma assumed, boolean live,
                            Optional<VerbsLimits> verbs) {
        this.node = Names.node("node", node);
        this.root = Objects.requireNonNull(root, "root");
        this.selection = Objects.requireNonNull(selection, "selection");
        this.assumed = Objects.requireNonNull(assumed, "assumed");
        this.live = live;
        this.verbs = Objects.requireNonNull(verbs, "verbs");
    }

    /** Reads a sysfs tree, with the RDMA devices' limits from {@code verbs} (tests). */
    SysfsPortSource(String node, Path root, InterfaceSelection selection, VerbsLimits verbs) {
        this(node, root, selection, AssumedRdma.none(), false, Optional.of(verbs));
    }

    /**
     * Reads a sysfs tree; the ports' addresses are unknown.
     *
     * @param node      this node's name
     * @param root      the directory holding {@code sys/}
     * @param selection which plain netdevs to take and which ports to leave out
     * @param assumed   which plain netdevs get an assumed RDMA device
     * @throws IllegalArgumentException when the node name is bad
     */
    public SysfsPortSource(String node, Path root, InterfaceSelection selection, AssumedRdma assumed) {
        this(node, root, selection, assumed, false, Optional.empty());
    }

    /**
     * Reads a sysfs tree with no assumed RDMA devices; the ports' addresses are unknown.
     *
     * @throws IllegalArgumentException when the node name is bad
     */
    public SysfsPortSource(String node, Path root, InterfaceSelection selection) {
        this(node, root, selection, AssumedRdma.none(), false, Optional.empty());
    }

    /**
     * Reads the live system: sysfs under {@code /}, addresses from the JDK.
     *
     * @param node      this node's name
     * @param selection which plain netdevs to take and which ports to leave out
     * @param assumed   which plain netdevs get an assumed RDMA device
     * @return the source
     * @throws IllegalArgumentException when the node name is bad
     */
    public static SysfsPortSource live(String node, InterfaceSelection selection, AssumedRdma assumed) {
        return new SysfsPortSource(node, Path.of("/"), selection, assumed, true, Optional.of(VerbsLimits.LIVE));
    }

    /** The devices' limits: those read before for the same devices, or read now (a failure noted, and tried again next time). */
    private Optional<IbvDevinfo> limits(List<Path> hcaDirs, Discovery.Builder found) {
        Set<String> devices = new TreeSet<>();
        hcaDirs.forEach(dir -> devices.add(SysfsFiles.name(dir)));
        Optional<LimitsRead> before = limitsRead;
        if (before.isPresent() && before.get().devices().equals(devices)) {
            before.get().notes().forEach(found::note);
            return Optional.of(before.get().limits());
        }
        List<String> notes = new ArrayList<>();
        Optional<IbvDevinfo> read = verbs.flatMap(v -> v.read(notes::add));
        notes.forEach(found::note);
        limitsRead = read.map(r -> new LimitsRead(Set.copyOf(devices), r, List.copyOf(notes)));
        return read;
    }

    /**
     * @throws DiscoveryException when {@code <root>/sys/class/net} is missing: this is no Linux
     *                            sysfs. A class directory that exists but cannot be listed costs
     *                            its ports and leaves a note.
     */
    @Override
    public Discovery discover() throws DiscoveryException {
        Path netClass = root.resolve("sys/class/net");
        if (!Files.isDirectory(netClass)) {
            throw new DiscoveryException(Quote.path(netClass) + " is not a directory: no Linux sysfs under " + Quote.path(root));
        }
        Discovery.Builder found = Discovery.builder(node);
        Optional<Map<String, List<String>>> addresses = Optional.empty();
        if (live) {
            try {
                addresses = Optional.of(JdkAddresses.read());
            } catch (SocketException e) {
                found.note("addresses unknown: cannot read " + JdkAddresses.SOURCE + ": "
                        + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS));
            }
        }
        Set<String> rdmaNetdevs = new HashSet<>();
        Map<String, XDomains.Link> links = XDomains.read(root, found);
        Set<String> linkRdma = new HashSet<>();
        links.values().forEach(l -> linkRdma.addAll(l.rdma()));
        Path ibClass = root.resolve("sys/class/infiniband");
        Optional<IbvDevinfo> limits = Optional.empty();
        if (Files.isDirectory(ibClass)) {
            List<Path> hcaDirs = list(ibClass, "no RDMA ports", found);
            limits = hcaDirs.isEmpty() ? Optional.empty() : limits(hcaDirs, found);
            for (Path hcaDir : hcaDirs) {
                if (!linkRdma.contains(SysfsFiles.name(hcaDir))) {
                    rdmaPorts(hcaDir, netClass, rdmaNetdevs, addresses, limits, links, found);
                }
            }
        }
        Set<String> linksLeft = new HashSet<>(links.keySet());
        linksLeft.removeAll(rdmaNetdevs);
        for (Path dir : list(netClass, "no plain netdevs", found)) {
            String netdev = SysfsFiles.name(dir);
            if (rdmaNetdevs.contains(netdev) || !Files.isDirectory(dir)) {
                continue;
            }
            if (links.containsKey(netdev)) {
                linksLeft.remove(netdev);
                linkPort(netdev, dir, links.get(netdev), addresses, limits, found);
            } else if (selection.selectsPlain(netdev)) {
                try {
                    NetdevFacts facts = NetdevFacts.read(dir);
                    List<String> notes = new ArrayList<>(facts.notes());
                    found.add(port(netdev, assumed.device(netdev), 1, PortKind.ETHERNET, facts.speedGbps(),
                            facts.plainState(), facts, addresses(netdev, addresses, notes), List.of(), Optional.empty(), Optional.empty()),
                            notes);
                } catch (SkipException e) {
                    found.skip(netdev, e.getMessage());
                }
            }
        }
        for (String netdev : new TreeSet<>(linksLeft)) {
            found.skip("xdomain " + links.get(netdev).thunderbolt().xdomain().orElseThrow(), "its netdev " + Quote.value(netdev)
                    + " is not in " + Quote.path(netClass));
        }
        return found.build();
    }

    /**
     * The port of a Thunderbolt host-to-host link ({@link XDomains}): its thunderbolt-net netdev, the
     * first RDMA device that runs over it, kind thunderbolt, the link's speed, the netdev's state. Taken
     * like an RDMA port: unless an exclude entry matches its netdev or RDMA device.
     */
    private void linkPort(String netdev, Path dir, XDomains.Link link, Optional<Map<String, List<String>>> addresses,
                          Optional<IbvDevinfo> verbsLimits, Discovery.Builder found) {
        String label = "xdomain " + link.thunderbolt().xdomain().orElseThrow();
        Optional<String> rdma = link.rdma().stream().findFirst();
        Optional<String> excluded = rdma.isPresent() ? selection.excludedBy(netdev, rdma.get()) : selection.excludedBy(netdev);
        if (excluded.isPresent()) {
            found.exclude(label, "excluded by interface selection entry " + Quote.value(excluded.get()) + " (netdev " + Quote.value(netdev) + ")");
            return;
        }
        try {
            NetdevFacts facts = NetdevFacts.read(dir);
            List<String> notes = new ArrayList<>(facts.notes());
            notes.addAll(link.notes());
            rdma.ifPresent(r -> verbsLimits.ifPresent(v -> notes.addAll(v.limitNotes(r))));
            Optional<RdmaLimits> limits = rdma.flatMap(r -> verbsLimits.flatMap(v -> v.limits(r)));
            found.add(port(netdev, rdma, 1, PortKind.THUNDERBOLT, link.thunderbolt().linkSpeedGbps(), facts.plainState(), facts,
                    addresses(netdev, addresses, notes), List.of(), limits, Optional.of(link.thunderbolt())), notes);
        } catch (SkipException e) {
            found.skip(label, e.getMessage());
        }
    }

    private void rdmaPorts(Path hcaDir, Path netClass, Set<String> rdmaNetdevs, Optional<Map<String, List<String>>> addresses,
                           Optional<IbvDevinfo> verbsLimits, Map<String, XDomains.Link> links, Discovery.Builder found) {
        String hca = SysfsFiles.name(hcaDir);
        Optional<RdmaLimits> limits = verbsLimits.flatMap(v -> v.limits(hca));
        Path portsDir = hcaDir.resolve("ports");
        List<Path> portDirs;
        try {
            portDirs = SysfsFiles.entries(portsDir);
        } catch (IOException e) {
            found.skip(hca, "cannot list " + Quote.path(portsDir) + ": " + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS));
            return;
        }
        Optional<String> hcaExcluded = selection.excludedBy(hca);
        for (Path portDir : portDirs) {
            String label = hca + "/" + SysfsFiles.name(portDir);
            try {
                int portNumber = SysfsFiles.parse(portDir, SysfsFiles.name(portDir), SysfsFormats::positive);
                String netdev = RdmaNetdevs.find(hcaDir, portNumber);
                rdmaNetdevs.add(netdev);
                Optional<String> excluded = hcaExcluded.or(() -> selection.excludedBy(netdev));
                if (excluded.isPresent()) {
                    found.exclude(label, "excluded by interface selection entry " + Quote.value(excluded.get()) + " (netdev "
                            + Quote.value(netdev) + ")");
                    continue;
                }
                RdmaPortFacts rdma = RdmaPortFacts.read(portDir);
                NetdevFacts facts = NetdevFacts.read(netClass.resolve(netdev));
                List<String> notes = new ArrayList<>(rdma.notes());
                notes.addAll(facts.notes());
                verbsLimits.ifPresent(v -> notes.addAll(v.limitNotes(hca)));
                Optional<XDomains.Link> link = Optional.ofNullable(links.get(netdev));
                link.ifPresent(l -> notes.addAll(l.notes()));
                found.add(port(netdev, Optional.of(hca), portNumber, link.isPresent() ? PortKind.THUNDERBOLT : rdma.kind(), rdma.rateGbps(),
                        rdma.state(), facts, addresses(netdev, addresses, notes), rdma.gids(), limits,
                        link.map(XDomains.Link::thunderbolt)), notes);
            } catch (SkipException e) {
                if (hcaExcluded.isPresent()) {
                    found.exclude(label, "excluded by interface selection entry " + Quote.value(hcaExcluded.get()));
                } else {
                    found.skip(label, e.getMessage());
                }
            }
        }
    }

    /** A netdev's addresses, when known: the JDK lists a netdev only when it has an address. */
    private static Optional<PortAddresses.Listed> addresses(String netdev, Optional<Map<String, List<String>>> all, List<String> notes) {
        return all.map(a -> PortAddresses.of(JdkAddresses.SOURCE, a.getOrDefault(netdev, List.of()), notes));
    }

    private LocalPort port(String netdev, Optional<String> hca, int portNumber, PortKind kind, Optional<Double> rate,
                           PortState state, NetdevFacts facts, Optional<PortAddresses.Listed> addresses, List<Gid> gids,
                           Optional<RdmaLimits> limits, Optional<Thunderbolt> thunderbolt)
            throws SkipException {
        try {
            Port port = new Port(node, netdev, hca, portNumber, kind, rate, state, thunderbolt,
                    addresses.map(PortAddresses.Listed::addresses).orElse(List.of()),
                    addresses.map(PortAddresses.Listed::prefixLengths).orElse(Map.of()), addresses.isPresent(), facts.bridge(),
                    Optional.empty(), Gid.roceV2Ipv4Index(gids), Optional.empty(), limits, List.of());
            return new LocalPort(port, facts.mac(), facts.mtu(), facts.ifindex(), facts.carrier(), gids);
        } catch (IllegalArgumentException e) {
            throw new SkipException(Names.escape(e.getMessage(), Quote.PATH_CHARS));
        }
    }

    /** A class directory's entries; when it cannot be listed, none, and a note saying what that costs. */
    private static List<Path> list(Path dir, String cost, Discovery.Builder found) {
        try {
            return SysfsFiles.entries(dir);
        } catch (IOException e) {
            found.note("cannot list " + Quote.path(dir) + ": " + Names.escape(String.valueOf(e.getMessage()), Quote.VALUE_CHARS)
                    + ": " + cost);
            return List.of();
        }
    }
}
