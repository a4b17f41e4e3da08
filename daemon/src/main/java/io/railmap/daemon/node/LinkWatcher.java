package io.railmap.daemon.node;

import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.model.SkippedPort;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.rail.RailAligner;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs discovery once per {@link #poll()} and reports what changed since the last poll: one log line
 * per port that appeared, went, came up or went down, and a skipped port's reason and a field
 * dropped to unknown (a note) once each (not on every poll). The daemon calls {@code poll} through
 * {@link DiscoveryPolls}: off the event loop, one poll at a time (on Linux on each link event and
 * every 10 s, or every 500 ms without events).
 */
public final class LinkWatcher {
    private static final Logger LOG = System.getLogger(LinkWatcher.class.getName());

    private final PortSource source;
    private final Consumer<Discovery> sink;
    private Map<String, LocalPort> last = Map.of();
    private Set<SkippedPort> lastSkipped = Set.of();
    private Set<String> lastNotes = Set.of();
    private String lastFailure;

    /**
     * @param source where ports come from
     * @param sink   receives what was discovered (ports, and node facts such as whether RDMA is on)
     *               after every poll that succeeded, changed or not
     */
    public LinkWatcher(PortSource source, Consumer<Discovery> sink) {
        this.source = source;
        this.sink = sink;
    }

    /** Discovers once, logs the differences and hands the ports on. A failure is logged once, not thrown. */
    public void poll() {
        Discovery discovery;
        try {
            discovery = source.discover();
        } catch (DiscoveryException e) {
            if (!e.getMessage().equals(lastFailure)) {
                LOG.log(Level.WARNING, "discovery failed: " + e.getMessage() + " (keeping the last known ports)");
                lastFailure = e.getMessage();
            }
            return;
        }
        if (lastFailure != null) {
            LOG.log(Level.INFO, "discovery works again");
            lastFailure = null;
        }
        Map<String, LocalPort> now = new HashMap<>();
        discovery.ports().forEach(p -> now.put(p.port().netdev(), p));
        for (LocalPort p : discovery.ports()) {
            LocalPort before = last.get(p.port().netdev());
            if (before == null) {
                LOG.log(Level.INFO, "port " + describe(p.port()) + " found");
            } else if (before.port().state() != p.port().state()) {
                LOG.log(Level.INFO, "port " + p.port().netdev() + " " + p.port().state().wireName()
                        + " (was " + before.port().state().wireName() + ")");
            }
        }
        for (String gone : last.keySet()) {
            if (!now.containsKey(gone)) {
                LOG.log(Level.INFO, "port " + gone + " gone");
            }
        }
        Set<SkippedPort> skipped = new HashSet<>(discovery.skipped());
        for (SkippedPort s : discovery.skipped()) {
            if (!lastSkipped.contains(s)) {
                LOG.log(Level.INFO, "port " + s.port() + " skipped: " + s.reason());
            }
        }
        for (String note : discovery.notes()) {
            if (!lastNotes.contains(note)) {
                LOG.log(Level.INFO, "discovery: " + note);
            }
        }
        last = now;
        lastSkipped = skipped;
        lastNotes = new HashSet<>(discovery.notes());
        sink.accept(discovery);
    }

    private static String describe(Port p) {
        return p.netdev() + p.rdma().map(r -> " (" + r + ")").orElse("") + " " + p.kind().wireName() + " "
                + p.state().wireName() + p.rateGbps().map(r -> " " + RailAligner.gbps(r)).orElse("");
    }
}
