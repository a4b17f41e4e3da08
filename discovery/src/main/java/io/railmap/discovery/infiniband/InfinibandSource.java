package io.railmap.discovery.infiniband;

import io.railmap.discovery.BoundedCommand;
import io.railmap.discovery.CommandFailedException;
import io.railmap.discovery.LocalPort;
import io.railmap.discovery.Quote;
import io.railmap.discovery.SourceUnavailableException;
import io.railmap.discovery.SwitchPortSource;
import io.railmap.discovery.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.SwitchPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The switch port at the far end of each active InfiniBand port, from infiniband-diags. For each
 * such port, two directed-route queries one hop out of that port only:
 * {@code smpquery -C <dev> -P <n> -D nodeinfo 0,<n>} (the far node's type, GUID and the port the
 * cable enters) and, when it is a switch, {@code smpquery -C <dev> -P <n> -D nodedesc 0,<n>} (its
 * description). That is two or three SMPs per local port, answered by the neighbour itself, whatever
 * the fabric's size; {@code ibnetdiscover}, {@code iblinkinfo} and {@code ibqueryerrors} sweep the
 * whole fabric (thousands of SMPs and seconds to minutes on a large one) to answer the same for one
 * port, and {@code ibstat} tells nothing about the far end. A far end that is not a switch (a
 * back-to-back cable to another HCA) gives no switch port. Needs read and write access to the umad
 * device ({@code /dev/infiniband/umad*}: root, or a udev rule).
 *
 * <p>Ports without InfiniBand link layer, or not active, are not asked. With no such port, nothing
 * runs and the source is not "unavailable". At most {@value #MAX_PORTS} ports are asked per read.
 */
public final class InfinibandSource implements SwitchPortSource {
    /** How long one smpquery may take: its own SMP timeout is 1 s with 3 retries by default. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** The longest smpquery output read, in bytes (NodeInfo is about 600). */
    static final int MAX_OUTPUT_BYTES = 64 * 1024;
    /** The most ports asked per read (a node with more IB ports than this is not a compute node). */
    static final int MAX_PORTS = 64;

    private final Supplier<Optional<Path>> smpquery;

    /** Runs the {@code smpquery} found in {@code PATH} or sbin ({@link BoundedCommand#locate}), looked for at each read. */
    public InfinibandSource() {
        this(() -> BoundedCommand.locate("smpquery"));
    }

    /** @param smpquery the program to run as smpquery (tests), or empty when it is not installed */
    InfinibandSource(Supplier<Optional<Path>> smpquery) {
        this.smpquery = smpquery;
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
        List<String> notes = new ArrayList<>();
        String lastFailure = null;
        int failed = 0;
        for (Port port : asked) {
            try {
                farEnd(smpquery, port).ifPresent(sp -> found.put(port.netdev(), sp));
            } catch (CommandFailedException e) {
                failed++;
                lastFailure = e.getMessage();
                notes.add("port " + Quote.value(port.netdev()) + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                notes.add("port " + Quote.value(port.netdev()) + ": " + e.getMessage() + "; no switch port");
            }
        }
        if (failed == asked.size()) {
            throw new SourceUnavailableException(lastFailure + " (smpquery needs the umad device /dev/infiniband/umad*: run as root or"
                    + " grant railmapd's user access)");
        }
        return new SwitchPorts(found, notes);
    }

    private static Optional<SwitchPort> farEnd(Path smpquery, Port port) throws CommandFailedException {
        String device = port.rdma().orElseThrow();
        String n = Integer.toString(port.rdmaPort());
        List<String> base = List.of(smpquery.toString(), "-C", device, "-P", n, "-D");
        List<String> nodeInfoArgv = new ArrayList<>(base);
        nodeInfoArgv.addAll(List.of("nodeinfo", "0," + n));
        String source = "smpquery -C " + device + " -P " + n + " -D";
        SmpQuery.NodeInfo info = SmpQuery.nodeInfo(source + " nodeinfo 0," + n, BoundedCommand.run(nodeInfoArgv, TIMEOUT, MAX_OUTPUT_BYTES));
        if (!info.isSwitch()) {
            return Optional.empty();
        }
        List<String> nodeDescArgv = new ArrayList<>(base);
        nodeDescArgv.addAll(List.of("nodedesc", "0," + n));
        String description = SmpQuery.nodeDescription(source + " nodedesc 0," + n,
                BoundedCommand.run(nodeDescArgv, TIMEOUT, MAX_OUTPUT_BYTES));
        return Optional.of(new SwitchPort(FarEndSource.INFINIBAND, info.guid(),
                description.isEmpty() ? Optional.empty() : Optional.of(description), Integer.toString(info.port())));
    }
}
