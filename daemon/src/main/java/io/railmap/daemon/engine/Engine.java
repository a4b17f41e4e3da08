package io.railmap.daemon.engine;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What this daemon knows, behind one lock: its own record and the newest record of every other node.
 * Readers never wait on a rebuild: {@link #record()} is a volatile read, and {@link #snapshot()} a
 * volatile read of an immutable snapshot made once after each change (O(n log n) in the records,
 * under the lock, by the first reader); the lock is only ever held for a map update or that copy.
 * Listeners run on the thread that made the change, after the lock is released, so they must be
 * cheap: the daemon hands rebuilds to a thread of their own.
 *
 * <p>Own record: the discovered ports ({@link #ports}) with the far ends the probe heard on each
 * ({@link #neighbours}). Its version starts at the wall clock in ms when the engine is made and grows
 * by one on every change, so a restarted daemon's records are newer than its previous
 * incarnation's (unless the clock went back, or it changed more than 1000 times a second).
 *
 * <p>Other nodes' records ({@link #accept}): the higher version wins; an older or equal version, or a
 * record claiming to be this node, is rejected. {@link #forget} drops a node that left.
 */
public final class Engine {
    /** What {@link #accept} did with a record. */
    public enum Accepted {
        /** A node not known before. */
        NEW,
        /** Newer than the one held: replaced it. */
        NEWER,
        /** Not newer than the one held (duplicate or out of order): ignored. */
        STALE,
        /** A record of this very node from elsewhere: ignored, this daemon owns its record. */
        OWN
    }

    private final String node;
    private final Optional<String> management;
    private List<Port> ports = List.of();
    private Optional<Boolean> rdmaEnabled = Optional.empty();
    private Map<String, List<PortRef>> neighbours = Map.of();
    private volatile NodeRecord own;
    /** Every record as of the last change; null until a reader asks after a change. */
    private volatile Snapshot snapshot;
    private final Map<String, NodeRecord> others = new TreeMap<>();
    private final List<Consumer<NodeRecord>> ownListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();

    /**
     * @param node       this node's name
     * @param management the management address this node's records carry (the cluster's bind
     *                   address); empty when there is none
     * @param clock      wall clock in ms, read once for the first version
     * @throws IllegalArgumentException when the node name is bad or the address is not an IP address
     */
    public Engine(String node, Optional<String> management, LongSupplier clock) {
        this.node = node;
        this.own = new NodeRecord(node, Math.max(0, clock.getAsLong()), List.of(), management, Optional.empty());
        this.management = own.management();
    }

    /**
     * An engine whose records carry no management address.
     *
     * @throws IllegalArgumentException when the node name is bad
     */
    public Engine(String node, LongSupplier clock) {
        this(node, Optional.empty(), clock);
    }

    /** @return this node's name */
    public String node() {
        return node;
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

    /** @return the new own record when it differs from the previous one (version raised), else null */
    private NodeRecord rebuild() {
        List<Port> merged = new ArrayList<>();
        for (Port p : ports) {
            merged.add(p.withNeighbours(neighbours.getOrDefault(p.netdev(), List.of())));
        }
        NodeRecord candidate = new NodeRecord(node, own.version(), merged, management, rdmaEnabled);
        if (candidate.equals(own)) {
            return null;
        }
        own = new NodeRecord(node, own.version() + 1, merged, management, rdmaEnabled);
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
     * Takes another node's record if it is newer than the one held.
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
            if (held != null && record.version() <= held.version()) {
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
     * Keeps only the records of the given nodes (and this one): the membership view changed.
     *
     * @param members the nodes that are members now
     * @return the nodes whose records were dropped
     */
    public List<String> retainOnly(java.util.Collection<String> members) {
        List<String> dropped = new ArrayList<>();
        synchronized (this) {
            for (String other : List.copyOf(others.keySet())) {
                if (!members.contains(other)) {
                    others.remove(other);
                    dropped.add(other);
                }
            }
        }
        if (!dropped.isEmpty()) {
            changed();
        }
        return dropped;
    }

    /**
     * @return every record known: this node's and the newest of every other node's; the same
     *         immutable snapshot until the next change
     */
    public Snapshot snapshot() {
        Snapshot known = snapshot;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (snapshot == null) {
                Map<String, NodeRecord> all = new HashMap<>(others);
                all.put(node, own);
                snapshot = new Snapshot(new ArrayList<>(all.values()));
            }
            return snapshot;
        }
    }
}
