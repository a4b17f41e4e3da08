package io.railmap.discovery.infiniband;

import io.railmap.discovery.linux.SysfsFiles;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.discovery.model.SourceUnavailableException;
import io.railmap.discovery.model.SwitchPortSource;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.process.BoundedCommand;
import io.railmap.process.CommandFailedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The switch port at the far end of each active InfiniBand port, from infiniband-diags' directed-route
 * queries one hop out of that port: {@code smpquery -C <dev> -P <n> -D nodeinfo 0,<n>} (the far
 * node's type, GUID and the port the cable enters) and, for a switch, {@code smpquery ... nodedesc
 * 0,<n>} (its description).
 *
 * <ul>
 *   <li>A far end that is an HCA (a back-to-back cable) gives no switch port but {@link Infiniband}
 *       facts: its node GUID and the port the cable enters ({@code Guid}, {@code LocalPort}), so the
 *       two ends of the cable can name each other. Every asked port whose node GUID sysfs gives
 *       ({@code /sys/class/infiniband/<hca>/node_guid}) carries it.</li>
 *   <li>Ports without InfiniBand link layer, or not active, are not asked; with none, nothing runs
 *       and the source is not "unavailable". At most {@value #MAX_PORTS} ports per read.</li>
 * </ul>
 *
 * <p>Cost: two or three SMPs per local port, answered by the neighbour itself, whatever the
 * fabric's size (docs/decisions.md says why not {@code ibnetdiscover}).
 *
 * <p>Needs read and write access to the umad device ({@code /dev/infiniband/umad*}: root, or a udev
 * rule).
 *
 * <p>Source: rdma-core {@code libibnetdisc/ibnetdisc.c} {@code recv_node_info} links a node reached by
 * a directed route the same way ({@code IB_NODE_GUID_F}, {@code IB_NODE_LOCAL_PORT_F}).
 */
public final class InfinibandSource implements SwitchPortSource {
    /** How long one smpquery may take: its own SMP timeout is 1 s with 3 retries by default. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** The longest smpquery output read, in bytes (NodeInfo is about 600). */
    static final int MAX_OUTPUT_BYTES = 64 * 1024;
    /** The most ports asked per read (a node with more IB ports than this is not a compute node). */
    static final int MAX_PORTS = 64;

    private static final Pattern SYSFS_GUID = Pattern.compile("([0-9a-f]{4}):([0-9a-f]{4}):([0-9a-f]{4}):([0-9a-f]{4})");

    private final Supplier<Optional<Path>> smpquery;
    private final Path sys;

    /**
     * Runs the {@code smpquery} found in {@code PATH} or sbin ({@link BoundedCommand#locate}), looked
     * for at each read, and reads node GUIDs under {@code /sys}.
     */
    public InfinibandSource() {
        this(() -> BoundedCommand.locate("smpquery"), Path.of("/sys"));
    }

    /**
     * @param smpquery the program to run as smpquery (tests), or empty when it is not installed
     * @param sys      the sysfs mount ({@code /sys}), under which {@code class/infiniband/<hca>/node_guid} is read
     */
    InfinibandSource(Supplier<Optional<Path>> smpquery, Path sys) {
        this.smpquery = smpquery;
        this.sys = sys;
    }

    @Override
    public String name() {
        return "infiniband-diags";
    }

    /**
     * @throws SourceUnavailableException when there are InfiniBand ports but smpquery is not
     *                                    installed, or no port could be asked at all (every query
     *                                    failed: no umad access, say); a failure on some ports only
     *                                    is a note
     */
    @Override
    public SwitchPorts read(List<LocalPort> ports) throws SourceUnavailableException {
        List<Port> asked = ports.stream().map(LocalPort::port)
                .filter(p -> p.kind() == PortKind.INFINIBAND && p.active() && p.rdma().isPresent())
                .limit(MAX_PORTS).toList();
        if (asked.isEmpty()) {
            return SwitchPorts.NONE;
        }
        Path smpquery = this.smpquery.get().orElseThrow(() -> new SourceUnavailableException(
                "smpquery is not installed (no smpquery in PATH or sbin): install infiniband-diags (Debian and Red Hat: infiniband-diags)"
                        + " to learn the switch port at the far end of each InfiniBand port"));
        Map<String, SwitchPort> found = new HashMap<>();
        Map<String, Infiniband> facts = new HashMap<>();
        List<String> notes = new ArrayList<>();
        String lastFailure = null;
        int failed = 0;
        for (Port port : asked) {
            String where = "port " + Quote.value(port.netdev());
            Optional<String> nodeGuid = Optional.empty();
            try {
                nodeGuid = Optional.of(nodeGuid(port.rdma().orElseThrow()));
            } catch (SkipException | IllegalArgumentException e) {
                notes.add(where + ": " + e.getMessage() + "; a cable from it to another HCA cannot be confirmed");
            }
            Optional<SmpQuery.NodeInfo> peerHca = Optional.empty();
            try {
                SmpQuery.NodeInfo info = nodeInfo(smpquery, port);
                if (info.isSwitch()) {
                    found.put(port.netdev(), switchPort(smpquery, port, info));
                } else if (info.isChannelAdapter()) {
                    peerHca = Optional.of(info);
                }
            } catch (CommandFailedException e) {
                failed++;
                lastFailure = e.getMessage();
                notes.add(where + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                notes.add(where + ": " + e.getMessage() + "; no far end from it");
            }
            if (nodeGuid.isPresent() || peerHca.isPresent()) {
                try {
                    facts.put(port.netdev(), new Infiniband(nodeGuid, peerHca.map(SmpQuery.NodeInfo::guid),
                            peerHca.map(SmpQuery.NodeInfo::port)));
                } catch (IllegalArgumentException e) {
                    notes.add(where + ": the HCA at the far end: " + e.getMessage() + "; not kept");
                    nodeGuid.ifPresent(g -> facts.put(port.netdev(), Infiniband.of(g)));
                }
            }
        }
        if (failed == asked.size()) {
            throw new SourceUnavailableException(lastFailure + " (smpquery needs the umad device /dev/infiniband/umad*: run as root or"
                    + " grant railmapd's user access)");
        }
        return new SwitchPorts(found, facts, notes);
    }

    /**
     * Reads {@code node_guid} as every sysfs attribute is read ({@link SysfsFiles#required}: a
     * regular file only, so a FIFO cannot hang the read, of at most {@value SysfsFiles#MAX_BYTES}
     * bytes of UTF-8).
     *
     * @param hca an RDMA device name
     * @return its node GUID, {@code 0x} and 16 lower-case hex digits
     * @throws SkipException            naming the file when it is missing, not a regular file,
     *                                  unreadable, too long or not UTF-8
     * @throws IllegalArgumentException naming the file when it is not a node GUID
     */
    private String nodeGuid(String hca) throws SkipException {
        Path file = sys.resolve("class").resolve("infiniband").resolve(hca).resolve("node_guid");
        return sysfsNodeGuid(Quote.path(file), SysfsFiles.required(file));
    }

    /**
     * @param source what was read, for messages (the file)
     * @param text   a sysfs {@code node_guid} as the kernel writes it (drivers/infiniband/core/sysfs.c,
     *               read back by rdma-core {@code libibverbs/device.c} {@code ibv_get_device_guid} with
     *               {@code "%hx:%hx:%hx:%hx"}): four groups of four hex digits, most significant first,
     *               separated by {@code ':'}, then a newline ({@code 4821:0b03:0096:a5cb})
     * @return the GUID as smpquery writes one: {@code 0x} and 16 lower-case hex digits
     * @throws IllegalArgumentException naming the source when the text is not of that form
     */
    static String sysfsNodeGuid(String source, String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SYSFS_GUID.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException(source + ": \"" + Names.escape(value, 40)
                    + "\" is not a node GUID (four groups of four hex digits separated by ':')");
        }
        return "0x" + m.group(1) + m.group(2) + m.group(3) + m.group(4);
    }

    private static SmpQuery.NodeInfo nodeInfo(Path smpquery, Port port) throws CommandFailedException {
        Answer answer = ask(smpquery, port, "nodeinfo");
        return SmpQuery.nodeInfo(answer.command(), answer.text());
    }

    private static SwitchPort switchPort(Path smpquery, Port port, SmpQuery.NodeInfo info) throws CommandFailedException {
        Answer answer = ask(smpquery, port, "nodedesc");
        String description = SmpQuery.nodeDescription(answer.command(), answer.text());
        return new SwitchPort(FarEndSource.INFINIBAND, info.guid(),
                description.isEmpty() ? Optional.empty() : Optional.of(description), Integer.toString(info.port()));
    }

    /** smpquery's output for one attribute, and its command line without the program's path (for messages). */
    private record Answer(String command, String text) {
    }

    /** Asks the node one hop out of the port, by directed route: {@code smpquery -C <hca> -P <n> -D <attribute> 0,<n>}. */
    private static Answer ask(Path smpquery, Port port, String attribute) throws CommandFailedException {
        String device = port.rdma().orElseThrow();
        String n = Integer.toString(port.rdmaPort());
        List<String> args = List.of("-C", device, "-P", n, "-D", attribute, "0," + n);
        List<String> argv = new ArrayList<>();
        argv.add(smpquery.toString());
        argv.addAll(args);
        return new Answer("smpquery " + String.join(" ", args), BoundedCommand.run(argv, TIMEOUT, MAX_OUTPUT_BYTES));
    }
}
