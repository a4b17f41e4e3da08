package io.railmap.daemon.node;

import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SourceUnavailableException;
import io.railmap.discovery.model.SwitchPortSource;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.SwitchPort;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Asks the switch-port sources (lldpd, infiniband-diags) once per {@link #poll()}, at their own
 * cadence ({@code --switch-poll-ms}, through {@link DiscoveryPolls} on a worker), and keeps the last
 * answer for discovery to attach to its ports ({@link #latest}) without waiting. A source that cannot
 * be asked is logged once, with why and what to do, and its switch ports are dropped (a stopped
 * lldpd gives no switch port, not a stale one); when it answers again that is logged once too. A
 * port whose switch port (or, for InfiniBand, the HCA port at the far end of a back-to-back cable)
 * appears, changes or goes is logged (at most {@value #MAX_CHANGE_LINES} lines per poll).
 */
public final class SwitchPortWatch {
    private static final Logger LOG = System.getLogger(SwitchPortWatch.class.getName());
    /** The most switch-port changes logged one line each per poll; the rest are counted. */
    static final int MAX_CHANGE_LINES = 10;

    private final List<SwitchPortSource> sources;
    private final long tickMs;
    /** Per source: null before its first answer, else whether it answered last time. */
    private final Map<String, Boolean> available = new HashMap<>();
    private volatile List<LocalPort> ports = List.of();
    private volatile SwitchPorts latest = SwitchPorts.NONE;

    /**
     * @param sources the sources, first wins when two name a switch port for one netdev
     * @param tickMs  the poll interval, for log lines
     */
    public SwitchPortWatch(List<SwitchPortSource> sources, long tickMs) {
        this.sources = List.copyOf(sources);
        this.tickMs = tickMs;
    }

    /**
     * Notes the ports discovery found, which the next poll asks about (InfiniBand asks per port).
     *
     * @param found this node's ports
     */
    public void ports(List<LocalPort> found) {
        ports = List.copyOf(Objects.requireNonNull(found, "found"));
    }

    /** @return the switch ports the last poll read (none before the first); never blocks */
    public SwitchPorts latest() {
        return latest;
    }

    /** Asks every source once, logs what changed, and keeps the answer. One poll at a time (DiscoveryPolls). */
    public void poll() {
        List<LocalPort> asked = ports;
        SwitchPorts all = SwitchPorts.NONE;
        for (SwitchPortSource source : sources) {
            Boolean before = available.get(source.name());
            try {
                SwitchPorts read = source.read(asked);
                all = all.and(read);
                // the first answer is logged when it tells something; an answer after a failure always
                if (Boolean.FALSE.equals(before) || before == null && !read.byNetdev().isEmpty()) {
                    int n = read.byNetdev().size();
                    LOG.log(Level.INFO, source.name() + " answers: " + n + (n == 1 ? " port has" : " ports have") + " a switch port at the far end"
                            + (before == null ? "" : " (it did not answer before)"));
                }
                available.put(source.name(), true);
            } catch (SourceUnavailableException e) {
                if (!Boolean.FALSE.equals(before)) {
                    LOG.log(Level.WARNING, source.name() + " unavailable: " + e.getMessage() + "; ports carry no switch port from it;"
                            + " asked again every " + tickMs + " ms (--switch-poll-ms), logged again when it answers");
                }
                available.put(source.name(), false);
            }
        }
        logChanges(latest, all);
        latest = all;
    }

    private static void logChanges(SwitchPorts before, SwitchPorts now) {
        List<String> lines = changes(before, now);
        lines.stream().limit(MAX_CHANGE_LINES).forEach(l -> LOG.log(Level.INFO, l));
        if (lines.size() > MAX_CHANGE_LINES) {
            LOG.log(Level.INFO, "and " + (lines.size() - MAX_CHANGE_LINES) + " more ports whose far end changed");
        }
    }

    /**
     * @return one line per netdev whose far end (switch port, or the HCA port of a back-to-back
     *         InfiniBand cable) appeared, changed or went between two readings, by netdev
     */
    static List<String> changes(SwitchPorts before, SwitchPorts now) {
        TreeSet<String> netdevs = new TreeSet<>(before.byNetdev().keySet());
        netdevs.addAll(now.byNetdev().keySet());
        netdevs.addAll(before.infiniband().keySet());
        netdevs.addAll(now.infiniband().keySet());
        List<String> lines = new ArrayList<>();
        for (String netdev : netdevs) {
            String was = farEnd(before, netdev);
            String is = farEnd(now, netdev);
            if (Objects.equals(was, is)) {
                continue;
            }
            lines.add("port " + netdev + " far end: " + (is == null ? "no switch port" : is) + (was == null ? "" : " (was " + was + ")"));
        }
        return lines;
    }

    /** @return the far end of a netdev as a reading tells it, or null when it tells none */
    private static String farEnd(SwitchPorts reading, String netdev) {
        SwitchPort sw = reading.byNetdev().get(netdev);
        if (sw != null) {
            return describe(sw);
        }
        return reading.infinibandOf(netdev).filter(ib -> ib.peerNodeGuid().isPresent())
                .map(ib -> "HCA " + ib.peerNodeGuid().get() + " port " + ib.peerPort().orElseThrow()).orElse(null);
    }

    /** @return {@code switch leaf0 port p1 (lldp:52:54:00:12:34:56)} */
    static String describe(SwitchPort p) {
        return "switch " + Names.escape(p.switchName(), 80) + " port "
                + Names.escape(p.port(), 80) + " (" + Names.escape(p.switchId(), 80) + ")";
    }
}
