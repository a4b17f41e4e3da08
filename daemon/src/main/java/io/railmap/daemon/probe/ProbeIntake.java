package io.railmap.daemon.probe;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What happens to a datagram after the socket read it: naming the port it arrived on from the
 * sender's IPv6 scope, refusing what this machine sent itself, decoding and authenticating, dropping
 * what is not for us, old or replayed, and updating the {@link NeighbourTable}. Everything of the
 * receive path except the socket, so that it can be fed bytes in tests. Not thread-safe: the probe's
 * event loop is its one caller.
 *
 * <p>The arrival port comes from the packet, never from the socket: on Linux a socket that joined
 * the group on one interface also receives the group's datagrams arriving on every other interface
 * where the group is joined. The sender of a link-local datagram has a scope id, which the kernel
 * sets to the index of the interface the datagram arrived on; this class maps that index to the
 * probed port's netdev.
 *
 * <p>Checks, in order, each with the {@link DropReason} it counts: the scope names a probed port
 * [NO_SCOPE, UNKNOWN_PORT]; the source is IPv6 link-local [SOURCE] and is not one of this machine's
 * own addresses, which only a local process's looped-back multicast has [LOOPED]; the datagram
 * decodes and is authenticated as the key requires ({@link ProbeCodec}); it is of this cluster and
 * not from this node [CLUSTER, SELF]; it is not of an older run than the live one of its sender, not
 * far behind the newest datagram taken from its sender, and not at or below the last datagram taken
 * from that far end on that port, even if that far end expired since ({@link SenderFloors}, the one
 * record of sequence numbers) [STALE, REPLAY]; it is not of an older run than the one the port holds
 * for that far end, and names a far end the port already holds or there is room
 * ({@link NeighbourTable#admit}) [STALE, TABLE_FULL]. A taken hello's TTL is cut to
 * {@link ProbeTiming#maxAcceptedTtlMs()}.
 */
public final class ProbeIntake {
    private static final Logger LOG = System.getLogger(ProbeIntake.class.getName());

    private final ProbeConfig config;
    private final ProbeMetrics metrics;
    private final NeighbourTable table;
    private final SenderFloors floors;
    private final Map<Integer, String> portByIndex = new HashMap<>();
    private final Map<String, Integer> indexByPort = new HashMap<>();
    private final Set<String> fullLogged = new HashSet<>();
    private Set<ByteBuffer> localAddresses = Set.of();

    /**
     * @param config  this daemon's cluster and node name (what to drop as foreign or self), its key,
     *                timing (the TTL cap) and limits
     * @param metrics where received and dropped datagrams are counted
     */
    public ProbeIntake(ProbeConfig config, ProbeMetrics metrics) {
        this.config = Objects.requireNonNull(config, "config");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.table = new NeighbourTable(config.limits());
        this.floors = new SenderFloors(config.limits(), config.timing().maxAcceptedTtlMs());
    }

    /**
     * Sets this machine's own addresses (of every interface, in this network namespace): a datagram
     * from one of them was sent by a local process and looped back, never over a cable.
     *
     * @param addresses every address of every local interface
     */
    public void localAddresses(Collection<InetAddress> addresses) {
        Set<ByteBuffer> set = new HashSet<>();
        for (InetAddress a : addresses) {
            set.add(ByteBuffer.wrap(a.getAddress()));
        }
        localAddresses = Set.copyOf(set);
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
        fullLogged.remove(netdev);
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
        byte[] source = linkLocal(sender.substring(0, sender.lastIndexOf('%')));
        if (source == null) {
            return drop(DropReason.SOURCE, "from " + sender + " on " + port + ": not an IPv6 link-local source");
        }
        if (localAddresses.contains(ByteBuffer.wrap(source))) {
            return drop(DropReason.LOOPED, "from " + sender + " on " + port + ": this machine's own address, a local process's looped-back datagram");
        }
        ProbeDatagram hello;
        try {
            hello = ProbeCodec.decode(datagram, config.key());
        } catch (ProbeFormatException e) {
            return drop(e.reason(), "from " + sender + " on " + port + ": " + e.getMessage());
        }
        if (!hello.cluster().equals(config.cluster())) {
            return drop(DropReason.CLUSTER, port + " heard " + hello.farEnd() + " of cluster " + hello.cluster());
        }
        if (hello.node().equals(config.node())) {
            return drop(DropReason.SELF, port + " heard this node's own " + hello.port());
        }
        switch (floors.judge(port, hello, nowMs)) {
            case STALE:
                return drop(DropReason.STALE, port + " heard " + hello.farEnd() + " incarnation " + hello.incarnation()
                        + ", older than the live one of " + hello.node());
            case REPLAY:
                return drop(DropReason.REPLAY, port + " heard " + hello.farEnd() + " sequence " + hello.seq()
                        + ", far behind the newest from " + hello.node());
            case REPEAT:
                return drop(DropReason.REPLAY, port + " heard " + hello.farEnd() + " sequence " + hello.seq()
                        + ", not above the last it took from that far end");
            default:
                break;
        }
        switch (table.admit(port, hello)) {
            case STALE:
                return drop(DropReason.STALE, port + " heard " + hello.farEnd() + " incarnation " + hello.incarnation()
                        + ", older than the one it knows");
            case FULL:
                if (fullLogged.add(port)) {
                    LOG.log(Level.WARNING, port + " hears as many far ends as the probe holds (" + config.limits().maxFarEndsPerPort()
                            + " per port, " + config.limits().maxFarEnds() + " in all); new ones are dropped and counted"
                            + " (railmap_probe_dropped_total{reason=\"table-full\"}), the ones held stay");
                }
                return drop(DropReason.TABLE_FULL, port + " is full; " + hello.farEnd() + " not taken");
            default:
                break;
        }
        if (hello.ttlMs() > config.timing().maxAcceptedTtlMs()) {
            hello = hello.withTtlMs(config.timing().maxAcceptedTtlMs());
        }
        metrics.received(port);
        floors.accepted(port, hello, nowMs);
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

    /** @return {@link NeighbourTable#nextExpiryMs()} */
    public long nextExpiryMs() {
        return table.nextExpiryMs();
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

    /** @return the 16 bytes of an IPv6 link-local literal ({@code fe80::/10}), or null for anything else */
    private static byte[] linkLocal(String literal) {
        if (literal.indexOf(':') < 0 || literal.length() > 45 || !literal.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            return null; // never hand InetAddress a name it would look up
        }
        try {
            InetAddress address = InetAddress.getByName(literal);
            return address instanceof Inet6Address && address.isLinkLocalAddress() ? address.getAddress() : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static String scopeOf(String sender) {
        if (sender == null) {
            return null;
        }
        int percent = sender.lastIndexOf('%');
        return percent < 0 || percent == sender.length() - 1 ? null : sender.substring(percent + 1);
    }
}
