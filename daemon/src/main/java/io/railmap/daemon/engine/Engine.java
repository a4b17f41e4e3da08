package io.railmap.daemon.engine;

import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What this daemon knows, behind one lock: its own record and one record of every other node.
 * Readers never wait on a rebuild: {@link #record()} is a volatile read, and {@link #snapshot()} a
 * volatile read of an immutable snapshot made once after each change (O(n log n) in the records,
 * under the lock, by the first reader); the lock is only ever held for a map update or that copy.
 * Listeners run on the thread that made the change, after the lock is released, so they must be
 * cheap: the daemon hands rebuilds to a thread of their own.
 *
 * <p>Own record: the discovered ports ({@link #ports}) with the far ends the probe heard on each
 * ({@link #neighbours}), and the ranks of jobs running on the node ({@link #ranks}). It carries this engine's incarnation, a random UUID made once per start of
 * the daemon, and a version that starts at 0 and grows by one on every change. No clock is read:
 * freshness never depends on the time of day (a machine whose clock is behind after a restart is
 * no different).
 *
 * <p>Other nodes' records ({@link #accept}): within one incarnation the higher version wins; a record
 * of another incarnation replaces the one held whatever the versions (the caller, the cluster's
 * record intake, passes only records of each node's current member); a record claiming to be this
 * node is rejected. {@link #retainOnly} keeps the records of the current members; {@link #forget}
 * drops a node.
 */
public final class Engine {
    /** What {@link #accept} did with a record. */
    public enum Accepted {
        /** A node not known before. */
        NEW,
        /** Replaced the one held: a higher version of its incarnation, or another incarnation. */
        NEWER,
        /** Of the incarnation held and not a higher version (duplicate or out of order): ignored. */
        STALE,
        /** A record of this very node from elsewhere: ignored, this daemon owns its record. */
        OWN
    }

    private final String node;
    private final UUID incarnation;
    private final Optional<String> management;
    private List<Port> ports = List.of();
    private Optional<Boolean> rdmaEnabled = Optional.empty();
    private Map<String, List<PortRef>> neighbours = Map.of();
    private List<LocalRank> ranks = List.of();
    private volatile NodeRecord own;
    /** Every record as of the last change; null until a reader asks after a change. */
    private volatile Snapshot snapshot;
    private final Map<String, NodeRecord> others = new TreeMap<>();
    private final List<Consumer<NodeRecord>> ownListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();

    /**
     * @param node        this node's name
     * @param management  the management address this node's records carry (the cluster's bind
     *                    address); empty when there is none
     * @param incarnation this start of the daemon, carried by every own record (and the identity of
     *                    its cluster member)
     * @throws IllegalArgumentException when the node name is bad or the address is not an IP address
     */
    public Engine(String node, Optional<String> management, UUID incarnation) {
        this.node = node;
        this.incarnation = incarnation;
        this.own = new NodeRecord(node, 0, List.of(), management, Optional.empty(), Optional.of(incarnation));
        this.management = own.management();
    }

    /**
     * An engine of a new incarnation ({@link UUID#randomUUID}, from a cryptographically strong
     * source) whose records carry this management address.
     *
     * @throws IllegalArgumentException when the node name is bad or the address is not an IP address
     */
    public Engine(String node, Optional<String> management) {
        this(node, management, UUID.randomUUID());
    }

    /**
     * An engine of a new incarnation whose records carry no management address.
     *
     * @throws IllegalArgumentException when the node name is bad
     */
    public Engine(String node) {
        this(node, Optional.empty());
    }

    /** @return this node's name */
    public String node() {
        return node;
    }

    /** @return this start of the daemon: the incarnation of every own record */
    public UUID incarnation() {
        return incarnation;
    }

    /**
     * Registers a listener called (outside the lock, on the thread that changed the record) with
     * every new version of the own record; it must not block.
     *
     * @param listener the listener
     */
    public void onOwnRecord(Consumer<NodeRecord> listener) {
        ownListeners.add(listener);
    }

    /**
     * Registers a listener called (outside the lock, on the thread that made the change: an event
     * loop, a JGroups thread, a worker) after any record known here changed: this node's, another
     * node's arriving or newer, or one dropped. It must not block; {@link #snapshot()} then returns
     * the changed records.
     *
     * @param listener the listener
     */
    public void onChange(Runnable listener) {
        changeListeners.add(listener);
    }

    /**
     * Sets what discovery found (the ports' {@code neighbours} are ignored; the probe's are used).
     *
     * @param discovered  this node's ports
     * @param rdmaEnabled whether RDMA over Thunderbolt is on; empty when discovery cannot tell
     * @throws IllegalArgumentException when a port belongs to another node or names repeat
     */
    public void ports(List<Port> discovered, Optional<Boolean> rdmaEnabled) {
        NodeRecord changed;
        synchronized (this) {
            ports = List.copyOf(discovered);
            this.rdmaEnabled = rdmaEnabled;
            changed = rebuild();
        }
        publish(changed);
    }

    /**
     * Sets the discovered ports of a node whose discovery tells nothing about RDMA being on (Linux).
     *
     * @param discovered this node's ports
     * @throws IllegalArgumentException when a port belongs to another node or names repeat
     */
    public void ports(List<Port> discovered) {
        ports(discovered, Optional.empty());
    }

    /**
     * Sets the far ends heard on each port (ports not in the map heard nothing).
     *
     * @param byPort netdev name → far ends
     */
    public void neighbours(Map<String, List<PortRef>> byPort) {
        NodeRecord changed;
        synchronized (this) {
            neighbours = Map.copyOf(byPort);
            changed = rebuild();
        }
        publish(changed);
    }

    /**
     * Sets the ranks of collective jobs found running on this node (docs/jobs.md); a change raises the record's version.
     *
     * @param found the ranks, at most {@link io.railmap.matrix.model.JobVariables#MAX_RANKS_PER_NODE}
     * @throws IllegalArgumentException when there are too many or two share a process id
     */
    public void ranks(List<LocalRank> found) {
        NodeRecord changed;
        synchronized (this) {
            List<LocalRank> before = ranks;
            ranks = List.copyOf(found);
            try {
                changed = rebuild();
            } catch (IllegalArgumentException e) {
                ranks = before;
                throw e;
            }
        }
        publish(changed);
    }

    /** @return the new own record when it differs from the previous one (version raised), else null */
    private NodeRecord rebuild() {
        List<Port> merged = new ArrayList<>();
        for (Port p : ports) {
            merged.add(p.withNeighbours(neighbours.getOrDefault(p.netdev(), List.of())));
        }
        NodeRecord candidate = new NodeRecord(node, own.version(), merged, management, rdmaEnabled, own.incarnation(), ranks);
        if (candidate.equals(own)) {
            return null;
        }
        own = new NodeRecord(node, own.version() + 1, merged, management, rdmaEnabled, own.incarnation(), ranks);
        return own;
    }

    private void publish(NodeRecord changed) {
        if (changed != null) {
            ownListeners.forEach(l -> l.accept(changed));
            changed();
        }
    }

    private void changed() {
        // After the lock is released: a reader between the change and this line still gets the
        // snapshot before it, and the next reader makes one with the change (under the lock, so
        // it cannot store a copy older than a change made after it).
        snapshot = null;
        changeListeners.forEach(Runnable::run);
    }

    /** @return this node's current record; never waits */
    public NodeRecord record() {
        return own;
    }

    /**
     * Takes another node's record unless it is no newer than the one held: of the same incarnation
     * with a version no higher. A record of another incarnation replaces the one held, whatever the
     * versions: the caller passes only records of the node's current member.
     *
     * @param record a record received from the cluster
     * @return what happened to it
     */
    public Accepted accept(NodeRecord record) {
        Accepted result;
        synchronized (this) {
            if (record.node().equals(node)) {
                return Accepted.OWN;
            }
            NodeRecord held = others.get(record.node());
            if (held != null && held.incarnation().equals(record.incarnation()) && record.version() <= held.version()) {
                return Accepted.STALE;
            }
            others.put(record.node(), record);
            result = held == null ? Accepted.NEW : Accepted.NEWER;
        }
        changed();
        return result;
    }

    /**
     * Drops the record of a node that left the cluster or was declared dead.
     *
     * @param other the node
     * @return true when a record was dropped
     */
    public boolean forget(String other) {
        boolean dropped;
        synchronized (this) {
            dropped = others.remove(other) != null;
        }
        if (dropped) {
            changed();
        }
        return dropped;
    }

    /**
     * Keeps only the records of the current members (and this node's own): the membership view
     * changed. A record of a node with no current member, or of another incarnation than the node's
     * current member's, is dropped.
     *
     * @param current node name → the incarnation of that node's current member
     * @return the nodes whose records were dropped
     */
    public List<String> retainOnly(Map<String, UUID> current) {
        List<String> dropped = new ArrayList<>();
        synchronized (this) {
            for (NodeRecord other : List.copyOf(others.values())) {
                UUID member = current.get(other.node());
                if (member == null || !other.incarnation().equals(Optional.of(member))) {
                    others.remove(other.node());
                    dropped.add(other.node());
                }
            }
        }
        if (!dropped.isEmpty()) {
            changed();
        }
        return dropped;
    }

    /**
     * @return the version of every record held, this node's included, by node: a copy made in O(n)
     *         under the lock, in no order. For a caller that looks often (a benchmark watching
     *         hundreds of members converge), where a {@link #snapshot()} after each change would sort
     *         every record each time.
     */
    public Map<String, Long> versions() {
        synchronized (this) {
            Map<String, Long> out = new HashMap<>(2 * others.size() + 2);
            others.forEach((other, record) -> out.put(other, record.version()));
            out.put(node, own.version());
            return out;
        }
    }

    /**
     * @return every record known: this node's and the one held of every other node; the same
     *         immutable snapshot until the next change
     */
    public Snapshot snapshot() {
        Snapshot known = snapshot;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            // read once: a change on another thread may clear the field (outside the lock) between two reads
            Snapshot made = snapshot;
            if (made == null) {
                Map<String, NodeRecord> all = new HashMap<>(others);
                all.put(node, own);
                made = new Snapshot(new ArrayList<>(all.values()));
                snapshot = made;
            }
            return made;
        }
    }
}
