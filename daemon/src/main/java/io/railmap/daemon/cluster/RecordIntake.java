package io.railmap.daemon.cluster;

import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.NodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * What happens to a record message and to a view, with no JGroups types: the rules of dissemination,
 * pure enough to test with plain values. One lock orders views and records, so a record is judged
 * against the view it arrived in. Only JGroups' threads and the membership query take it, and
 * nothing runs under it but decoding one message and updating maps (the engine's listeners hand
 * rebuilds to a thread of their own); what an event loop touches here ({@link #ownChanged},
 * {@link #size}) never waits for it.
 *
 * <p>A record from member M is taken when it decodes ({@link RejectReason#MALFORMED}), names M's
 * own node ({@link RejectReason#FOREIGN}), is not this node's ({@link RejectReason#OWN}) and is
 * newer than the one held ({@link RejectReason#STALE}, via {@link Engine#accept}). A record from a
 * member that is not in the current view is <em>parked</em>, the newest per member: JGroups may
 * deliver a new member's first message just before this daemon handles the view that admits it.
 * The next view applies a parked record when its sender is a member, and rejects it
 * ({@link RejectReason#NOT_MEMBER}) otherwise.
 *
 * <p>A view drops the records of nodes none of whose members remain ({@link Engine#retainOnly});
 * nothing else removes a record.
 *
 * <p>Bounds: at most {@value #MAX_RECORDS} records and {@value #MAX_RECORD_BYTES} bytes of record
 * messages (each at most {@link RecordMessages#MAX_BYTES}) are held; a record of a new node beyond
 * either is rejected ({@link RejectReason#FULL}, logged once until there is room again), while the
 * records held keep being updated. {@value #MAX_PARKED} records wait at most.
 */
final class RecordIntake {
    private static final System.Logger LOG = System.getLogger(RecordIntake.class.getName());
    /** Most records parked at once; more are rejected as {@link RejectReason#NOT_MEMBER}. */
    static final int MAX_PARKED = 1024;
    /** Most records held, this node's own included: far above any real cluster (2,000 nodes is large). */
    static final int MAX_RECORDS = 4096;
    /** Most bytes of record messages held at once (a real record is 1 to 20 kB). */
    static final long MAX_RECORD_BYTES = 64L << 20;

    /**
     * A member of a view.
     *
     * @param id      its identity, unique per start of a daemon
     * @param node    the node its address names; empty when it names none
     * @param address its cluster address {@code host:port}, or {@code "?"}
     * @param self    whether it is this daemon
     */
    record ViewMember(String id, Optional<String> node, String address, boolean self) {
    }

    /**
     * What a view changed.
     *
     * @param joined     members not in the previous view
     * @param left       members of the previous view not in this one
     * @param dropped    nodes whose records were removed
     * @param duplicates node names claimed by more than one member, with the members' addresses
     */
    record ViewChange(List<ViewMember> joined, List<ViewMember> left, List<String> dropped, Map<String, List<String>> duplicates) {
    }

    private record Parked(Optional<String> senderNode, NodeRecord record, int bytes) {
    }

    private final Engine engine;
    private final ClusterMetrics metrics;
    private final int maxRecords;
    private final long maxBytes;
    private final LongSupplier nanoClock;
    private List<ViewMember> view = List.of();
    private long viewId;
    private final Map<String, ViewMember> byId = new HashMap<>();
    private final Map<String, Parked> parked = new LinkedHashMap<>();
    private final Map<String, Long> takenAtNanos = new HashMap<>();
    private final Map<String, Integer> bytesByNode = new HashMap<>();
    private long heldBytes;
    private boolean fullLogged;
    /** When this node's record last changed; written without the lock, from the probe's event loop. */
    private volatile long ownChangedAtNanos;
    /** Members in the current view, for a gauge read on the API's event loop without the lock. */
    private volatile int viewSize;

    /**
     * @param engine    the owner of the records
     * @param metrics   where received and rejected records are counted
     * @param nanoClock a monotonic clock in ns ({@link System#nanoTime} in the daemon)
     */
    RecordIntake(Engine engine, ClusterMetrics metrics, LongSupplier nanoClock) {
        this(engine, metrics, nanoClock, MAX_RECORDS, MAX_RECORD_BYTES);
    }

    /**
     * @param maxRecords most records held, this node's own included
     * @param maxBytes   most bytes of record messages held
     */
    RecordIntake(Engine engine, ClusterMetrics metrics, LongSupplier nanoClock, int maxRecords, long maxBytes) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.engine = engine;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.ownChangedAtNanos = nanoClock.getAsLong();
    }

    /** Notes that this node's record just changed (for its age); never waits for the lock. */
    void ownChanged() {
        ownChangedAtNanos = nanoClock.getAsLong();
    }

    /**
     * Installs a view: drops the records of nodes that have no member left, applies parked records
     * whose sender is a member, and rejects the other parked records.
     *
     * @param id      the view's number
     * @param members the members in view order, the coordinator first
     * @return what changed
     */
    synchronized ViewChange view(long id, List<ViewMember> members) {
        Map<String, ViewMember> now = new LinkedHashMap<>();
        members.forEach(m -> now.put(m.id(), m));
        List<ViewMember> joined = new ArrayList<>();
        for (ViewMember m : members) {
            if (!byId.containsKey(m.id()) && !m.self()) {
                joined.add(m);
            }
        }
        List<ViewMember> left = new ArrayList<>();
        for (ViewMember m : view) {
            if (!now.containsKey(m.id())) {
                left.add(m);
            }
        }
        view = List.copyOf(members);
        viewSize = view.size();
        viewId = id;
        byId.clear();
        byId.putAll(now);

        Set<String> nodes = new TreeSet<>();
        Map<String, List<String>> claims = new TreeMap<>();
        for (ViewMember m : members) {
            m.node().ifPresent(n -> {
                nodes.add(n);
                claims.computeIfAbsent(n, k -> new ArrayList<>()).add(m.address());
            });
        }
        List<String> dropped = engine.retainOnly(nodes);
        dropped.forEach(takenAtNanos::remove);
        dropped.forEach(n -> heldBytes -= bytesByNode.getOrDefault(n, 0));
        dropped.forEach(bytesByNode::remove);

        Map<String, Parked> waiting = new LinkedHashMap<>(parked);
        parked.clear();
        waiting.forEach((sender, p) -> {
            if (byId.containsKey(sender)) {
                take(p.senderNode(), p.record(), p.bytes()).ifPresent(metrics::rejected);
            } else {
                metrics.rejected(RejectReason.NOT_MEMBER);
            }
        });

        Map<String, List<String>> duplicates = new TreeMap<>();
        claims.forEach((node, addresses) -> {
            if (addresses.size() > 1) {
                duplicates.put(node, List.copyOf(addresses));
            }
        });
        return new ViewChange(joined, left, dropped, duplicates);
    }

    /**
     * Judges one record message.
     *
     * @param senderId   the sending member's identity
     * @param senderNode the node the sender's address names, if any
     * @param payload    the message's bytes
     * @return empty when the record was taken or parked, else why it was rejected
     */
    synchronized Optional<RejectReason> receive(String senderId, Optional<String> senderNode, byte[] payload, int offset, int length) {
        metrics.received();
        NodeRecord record;
        try {
            record = RecordMessages.decode("record from " + senderNode.orElse(senderId), payload, offset, length);
        } catch (RuntimeException e) {
            // Whatever a peer sends, the receive path goes on: a bad payload is counted, never thrown.
            return reject(RejectReason.MALFORMED);
        }
        if (!byId.containsKey(senderId)) {
            if (parked.size() >= MAX_PARKED && !parked.containsKey(senderId)) {
                return reject(RejectReason.NOT_MEMBER);
            }
            Parked before = parked.get(senderId);
            if (before == null || before.record().version() < record.version()) {
                parked.put(senderId, new Parked(senderNode, record, length));
            }
            return Optional.empty();
        }
        Optional<RejectReason> why = take(senderNode, record, length);
        why.ifPresent(metrics::rejected);
        return why;
    }

    /** @return why the record was not taken, or empty when it was (counted as rejected by the caller) */
    private Optional<RejectReason> take(Optional<String> senderNode, NodeRecord record, int bytes) {
        if (senderNode.isEmpty() || !senderNode.get().equals(record.node())) {
            return Optional.of(RejectReason.FOREIGN);
        }
        int before = bytesByNode.getOrDefault(record.node(), 0);
        boolean known = bytesByNode.containsKey(record.node());
        if (!known && (bytesByNode.size() + 1 >= maxRecords || heldBytes + bytes > maxBytes)
                || known && heldBytes - before + bytes > maxBytes) {
            if (!fullLogged) {
                fullLogged = true;
                LOG.log(System.Logger.Level.WARNING, "the cluster holds as many records as this daemon keeps (" + maxRecords
                        + " nodes, " + maxBytes + " bytes); records of further nodes are rejected and counted"
                        + " (railmap_cluster_records_rejected_total{reason=\"full\"})");
            }
            return Optional.of(RejectReason.FULL);
        }
        switch (engine.accept(record)) {
            case OWN:
                return Optional.of(RejectReason.OWN);
            case STALE:
                return Optional.of(RejectReason.STALE);
            default:
                takenAtNanos.put(record.node(), nanoClock.getAsLong());
                heldBytes += bytes - before;
                bytesByNode.put(record.node(), bytes);
                if (heldBytes < maxBytes * 9 / 10 && bytesByNode.size() + 1 < maxRecords * 9 / 10) {
                    fullLogged = false;
                }
                return Optional.empty();
        }
    }

    private Optional<RejectReason> reject(RejectReason reason) {
        metrics.rejected(reason);
        return Optional.of(reason);
    }

    /**
     * @param cluster   the cluster name
     * @param addressOf a member's current cluster address by identity, {@code "?"} when unknown
     *                  (the address seen with the view is used then)
     * @return the current view with the version and age of each member's record
     */
    synchronized Membership membership(String cluster, java.util.function.Function<String, String> addressOf) {
        long now = nanoClock.getAsLong();
        Map<String, NodeRecord> records = new HashMap<>();
        engine.snapshot().records().forEach(r -> records.put(r.node(), r));
        List<Member> out = new ArrayList<>();
        for (int i = 0; i < view.size(); i++) {
            ViewMember m = view.get(i);
            NodeRecord r = m.node().map(records::get).orElse(null);
            OptionalLong version = r == null ? OptionalLong.empty() : OptionalLong.of(r.version());
            OptionalLong age = OptionalLong.empty();
            if (r != null) {
                Long at = m.self() ? Long.valueOf(ownChangedAtNanos) : takenAtNanos.get(r.node());
                if (at != null) {
                    age = OptionalLong.of(Math.max(0, (now - at) / 1_000_000));
                }
            }
            String address = addressOf.apply(m.id());
            out.add(new Member(m.node(), "?".equals(address) ? m.address() : address, m.self(), i == 0, version, age));
        }
        return new Membership(cluster, viewId, out);
    }

    /** @return the members of the current view, in view order */
    synchronized List<ViewMember> members() {
        return view;
    }

    /** @return the number of members in the current view; never waits for the lock */
    int size() {
        return viewSize;
    }

    /** @return records waiting for a view that admits their sender */
    synchronized int parkedCount() {
        return parked.size();
    }
}
