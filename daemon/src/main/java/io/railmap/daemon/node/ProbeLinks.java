package io.railmap.daemon.node;

import io.railmap.daemon.probe.ProbePort;
import io.railmap.daemon.probe.ProbeService;
import io.railmap.discovery.model.LocalPort;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the probe on exactly the ports that have carrier: after each discovery, ports that gained
 * carrier are added ({@link ProbeService#portUp}), ports that lost it or went away are removed
 * ({@link ProbeService#portDown}, which forgets their far ends at once). A port the probe cannot use
 * yet (no IPv6 link-local address while duplicate address detection runs) is retried on the next
 * discovery; its reason is logged once.
 */
public final class ProbeLinks {
    private static final Logger LOG = System.getLogger(ProbeLinks.class.getName());

    private final ProbeService probe;
    private final Set<String> wanted = new HashSet<>();
    private final Set<String> pending = new HashSet<>();
    private final Map<String, String> lastFailure = new HashMap<>();

    /** @param probe the deployed probe */
    public ProbeLinks(ProbeService probe) {
        this.probe = probe;
    }

    /**
     * @param ports this node's ports as last discovered
     */
    public synchronized void reconcile(List<LocalPort> ports) {
        Set<String> carrier = new HashSet<>();
        for (LocalPort p : ports) {
            if (p.carrier()) {
                carrier.add(p.port().netdev());
            }
        }
        for (String gone : Set.copyOf(wanted)) {
            if (!carrier.contains(gone)) {
                wanted.remove(gone);
                lastFailure.remove(gone);
                probe.portDown(gone);
            }
        }
        Set<String> probed = probe.probedPorts();
        for (LocalPort p : ports) {
            String netdev = p.port().netdev();
            if (!carrier.contains(netdev) || probed.contains(netdev) || pending.contains(netdev)) {
                continue;
            }
            wanted.add(netdev);
            pending.add(netdev);
            probe.portUp(ProbePort.of(p.port())).onComplete(result -> done(netdev, result.cause()));
        }
    }

    private synchronized void done(String netdev, Throwable failure) {
        pending.remove(netdev);
        if (failure == null) {
            lastFailure.remove(netdev);
            return;
        }
        if (!String.valueOf(failure.getMessage()).equals(lastFailure.put(netdev, String.valueOf(failure.getMessage())))) {
            LOG.log(Level.INFO, "port " + netdev + " not probed yet: " + failure.getMessage() + " (retrying)");
        }
    }
}
