package io.railmap.daemon.probe;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What happens to a datagram after the socket read it: naming the port it arrived on from the
 * sender's IPv6 scope, decoding, dropping what is not for us, and updating the
 * {@link NeighbourTable}. Everything of the receive path except the socket, so that it can be fed
 * bytes in tests. Not thread-safe: the probe's event loop is its one caller.
 *
 * <p>The arrival port comes from the packet, never from the socket: on Linux a socket that joined
 * the group on one interface also receives the group's datagrams arriving on every other interface
 * where the group is joined. The sender of a link-local datagram has a scope id, which the kernel
 * sets to the index of the interface the datagram arrived on; this class maps that index to the
 * probed port's netdev.
 */
public final class ProbeIntake {
    private static final Logger LOG = System.getLogger(ProbeIntake.class.getName());

    private final ProbeConfig config;
    private final ProbeMetrics metrics;
    private final NeighbourTable table = new NeighbourTable();
    private final Map<Integer, String> portByIndex = new HashMap<>();
    private final Map<String, Integer> indexByPort = new HashMap<>();

    /**
     * @param config  this daemon's cluster and node name (what to drop as foreign or self)
     * @param metrics where received and dropped datagrams are counted
     */
    public ProbeIntake(ProbeConfig config, ProbeMetrics metrics) {
        this.config = Objects.requireNonNull(config, "config");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * Starts accepting datagrams that arrive on a port. A port already known under another index
     * (its netdev was recreated) or an index already known under another name (the netdev was
     * renamed) is remapped.
     *
     * @param netdev  the port's netdev
     * @param ifindex its interface index in this network namespace, ≥ 1
     * @throws IllegalArgumentException when the name is invalid or the index is below 1
     */
    public void portUp(String netdev, int ifindex) {
        Names.plain("netdev", netdev);
        if (ifindex < 1) {
            throw new IllegalArgumentException("interface index " + ifindex + " of " + netdev + " is below 1");
        }
        Integer oldIndex = indexByPort.put(netdev, ifindex);
        if (oldIndex != null) {
            portByIndex.remove(oldIndex);
        }
        String oldName = portByIndex.put(ifindex, netdev);
        if (oldName != null && !oldName.equals(netdev)) {
            indexByPort.remove(oldName); // the interface was renamed
        }
    }

    /**
     * Stops accepting datagrams on a port and forgets what it heard.
     *
     * @param netdev the port's netdev
     * @return a {@link NeighbourEvent.Lost} with {@link LossCause#CARRIER} per far end it heard
     */
    public List<NeighbourEvent> portDown(String netdev) {
        Integer index = indexByPort.remove(netdev);
        if (index != null) {
            portByIndex.remove(index);
        }
        return table.carrierLost(netdev);
    }

    /**
     * Takes one datagram as the socket read it. Never throws for bad input: every datagram is
     * either counted as received on its port or counted as dropped with a {@link DropReason}.
     *
     * @param sender   the sender's address as text, with its scope after {@code '%'}
     *                 ({@code "fe80:0:0:0:1c2:3ff:fe04:506%3"}), as Vert.x's
     *                 {@code SocketAddress.hostAddress()} gives it; the scope is an interface index
     *                 (or, if a platform gives one, an interface name)
     * @param datagram the datagram's bytes
     * @param nowMs    when it arrived, monotonic ms
     * @return what changed in the neighbour table (often nothing)
     */
    public List<NeighbourEvent> accept(String sender, byte[] datagram, long nowMs) {
        String scope = scopeOf(sender);
        if (scope == null) {
            return drop(DropReason.NO_SCOPE, "sender " + sender + " has no IPv6 scope");
        }
        String port = portOf(scope);
        if (port == null) {
            return drop(DropReason.UNKNOWN_PORT, "arrived on interface " + scope + ", which is not a probed port");
        }
        ProbeDatagram hello;
        try {
            hello = ProbeCodec.decode(datagram);
        } catch (ProbeFormatException e) {
            return drop(e.reason(), "from " + sender + " on " + port + ": " + e.getMessage());
        }
        if (!hello.cluster().equals(config.cluster())) {
            return drop(DropReason.CLUSTER, port + " heard " + hello.farEnd() + " of cluster " + hello.cluster());
        }
        if (hello.node().equals(config.node())) {
            return drop(DropReason.SELF, port + " heard this node's own " + hello.port());
        }
        if (table.stale(port, hello)) {
            return drop(DropReason.STALE, port + " heard " + hello.farEnd() + " incarnation " + hello.incarnation()
                    + ", older than the one it knows");
        }
        metrics.received(port);
        return table.heard(port, hello, nowMs);
    }

    /**
     * Forgets far ends whose TTL ran out.
     *
     * @param nowMs the current time, monotonic ms
     * @return a {@link NeighbourEvent.Lost} with {@link LossCause#EXPIRED} per far end forgotten
     */
    public List<NeighbourEvent> expire(long nowMs) {
        return table.expire(nowMs);
    }

    /** @return {@link NeighbourTable#view()} */
    public Map<String, List<PortRef>> view() {
        return table.view();
    }

    /** @return {@link NeighbourTable#neighbours()} */
    public Map<String, List<Neighbour>> neighbours() {
        return table.neighbours();
    }

    private List<NeighbourEvent> drop(DropReason reason, String detail) {
        metrics.dropped(reason);
        LOG.log(Level.DEBUG, () -> "probe datagram dropped (" + reason.tag() + "): " + detail);
        return List.of();
    }

    private String portOf(String scope) {
        if (!scope.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return indexByPort.containsKey(scope) ? scope : null;
        }
        if (scope.length() > 10) {
            return null;
        }
        long index = Long.parseLong(scope);
        return index > Integer.MAX_VALUE ? null : portByIndex.get((int) index);
    }

    private static String scopeOf(String sender) {
        if (sender == null) {
            return null;
        }
        int percent = sender.lastIndexOf('%');
        return percent < 0 || percent == sender.length() - 1 ? null : sender.substring(percent + 1);
    }
}
