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
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * What happens to a record message and to a view, with no JGroups types: the rules of dissemination,
 * pure enough to test with plain values. One lock orders views and records, so a record is judged
 * against the view it arrived in. Only JGroups' threads and the membership query take it, and
 * nothing runs under it but decoding one message and updating maps (the engine's listeners hand
 * rebuilds to a thread of their own); what an event loop touches here ({@link #ownChanged},
 * {@link #size}) never waits for it.
 *
 * <p>A record belongs to the live member that sent it. Each node has at most one <em>current
 * member</em>: the last member of the view whose address names that node (JGroups appends members
 * in the order they join, so after a restart the new run is the later one; every member sees the
 * same view, so all choose the same member). A record from member M is taken when the message is
 * one this daemon reads ({@link RejectReason#MALFORMED}, {@link RejectReason#PROTOCOL}), the
 * record is M's own, of M's node and with M's identity as incarnation ({@link RejectReason#FOREIGN}),
 * not this node's ({@link RejectReason#OWN}), M is its node's current member
 * ({@link RejectReason#SUPERSEDED}) and, when the record held is of M's incarnation too, its version
 * is higher ({@link RejectReason#STALE}, via {@link Engine#accept}). A record of the current member
 * replaces one of another incarnation whatever the versions: freshness needs no clock. A record
 * from a member that is not in the current view is <em>parked</em>, the newest per member: JGroups
 * may deliver a new member's first message just before this daemon handles the view that admits
 * it. The next view applies a parked record when its sender is a member, and rejects it
 * ({@link RejectReason#NOT_MEMBER}) otherwise.
 *
 * <p>A view drops every record that is not of its node's current member ({@link Engine#retainOnly}):
 * the member left, was dropped, or was superseded by a later member of the same node. Nothing else
 * removes a record.
 *
 * <p>Bounds, so that what members send never outgrows the daemon's heap: a record message is at
 * most {@link RecordMessages#MAX_BYTES} ({@link RejectReason#TOO_LARGE} beyond); at most
 * {@value #MAX_RECORDS} records and {@link #heldBytesFor} bytes of record messages are held (an
 * eighth of the heap: decoded, a record takes about 2.3 times its message's bytes); a record
 * beyond either (of a new node, or an update that would pass the bytes) is rejected
 * ({@link RejectReason#FULL}, logged once until there is room again), while the records held keep
 * being updated within the bound. At most {@value #MAX_PARKED} records and an eighth of the held
 * bytes wait for a view ({@link RejectReason#NOT_MEMBER} beyond).
 */
final class RecordIntake {
    private static final System.Logger LOG = System.getLogger(RecordIntake.class.getName());
    /** Most records parked at once; more are rejected as {@link RejectReason#NOT_MEMBER}. */
    static final int MAX_PARKED = 1024;
    /** Most records held, this node's own included: far above any real cluster (2,000 nodes is large). */
    static final int MAX_RECORDS = 4096;
    /** Fraction of the heap that the record messages held may add up to: 1/{@value}. */
    static final int HEAP_SHARE = 8;
    /** Fraction of the held bytes that records waiting for a view may add up to: 1/{@value}. */
    static final int PARKED_SHARE = 8;

    /**
     * The bytes of record messages held at once, for a heap: an eighth of it, so that the records
     * decoded (about 2.3 times their messages' bytes, measured with 8- and 64-port records), JGroups'
     * copies of the messages until they are stable, and a rebuild of the topology all fit. Under
     * {@code bin/railmapd}'s {@code -Xmx128m} (a max heap of about 123 MiB) that is about 15.5 MiB:
     * 2,000 records of 8 ports with addresses and switch ports (7.7 KB each).
     *
     * @param maxHeapBytes the JVM's largest heap ({@link Runtime#maxMemory()}), in bytes
     * @return the bound in bytes, at least one largest record message
     */
    static long heldBytesFor(long maxHeapBytes) {
        return Math.max(RecordMessages.MAX_BYTES, maxHeapBytes / HEAP_SHARE);
    }

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
     * @param duplicates node names claimed by more than one member, with the members' addresses in
     *                   view order: the last is the node's current member, whose record counts
     */
    record ViewChange(List<ViewMember> joined, List<ViewMember> left, List<String> dropped, Map<String, List<String>> duplicates) {
    }

    /**
     * What became of one record message.
     *
     * @param rejected     why it was not taken; empty when it was taken or parked
     * @param why          for {@link RejectReason#MALFORMED}, {@link RejectReason#PROTOCOL} and
     *                     {@link RejectReason#FOREIGN}: what is wrong, one line of at most
     *                     {@value #MAX_WHY_CHARS} characters (and an ellipsis), the sender's values
     *                     in it escaped and cut as the codec quotes them; else empty
     * @param sender       the protocol versions the sender speaks, when the message said
     * @param skipped      what of a newer sender's record this daemon skipped (at most
     *                     {@value RecordMessages#MAX_SKIPPED_LINES} lines)
     */
    record Receipt(Optional<RejectReason> rejected, String why, Optional<ClusterProtocol> sender, List<String> skipped) {
        /** Taken or parked. */
        static final Receipt TAKEN = new Receipt(Optional.empty(), "", Optional.empty(), List.of());

        static Receipt because(RejectReason reason) {
            return new Receipt(Optional.of(reason), "", Optional.empty(), List.of());
        }
    }

    /** Longest reason kept for the log, in characters. */
    static final int MAX_WHY_CHARS = 400;

    private record Parked(Optional<String> senderNode, NodeRecord record, int bytes) {
    }

    private final Engine engine;
    private final ClusterMetrics metrics;
    private final int maxRecords;
    private final long maxBytes;
    private final LongSupplier nanoClock;
    private final ClusterProtocol protocol;
    private List<ViewMember> view = List.of();
    private Map<String, ViewMember> currentByNode = Map.of();
    private long viewId;
    private final Map<String, ViewMember> byId = new HashMap<>();
    private final Map<String, Parked> parked = new LinkedHashMap<>();
    private final Map<String, Long> takenAtNanos = new HashMap<>();
    private final Map<String, Integer> bytesByNode = new HashMap<>();
    private long heldBytes;
    private long parkedBytes;
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
        this(engine, metrics, nanoClock, MAX_RECORDS, heldBytesFor(Runtime.getRuntime().maxMemory()), ClusterProtocol.THIS);
    }

    /**
     * @param maxRecords most records held, this node's own included
     * @param maxBytes   most bytes of record messages held; an eighth of it more may wait for a view
     * @param protocol   the protocol versions this daemon reads
     */
    RecordIntake(Engine engine, ClusterMetrics metrics, LongSupplier nanoClock, int maxRecords, long maxBytes, ClusterProtocol protocol) {
        this.protocol = protocol;
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
     * Installs a view: drops every record that is not of its node's current member (the member
     * left, or a later member names the same node), applies parked records whose sender is a member,
     * and rejects the other parked records.
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

        Map<String, ViewMember> current = new HashMap<>();
        Map<String, UUID> incarnations = new HashMap<>();
        Map<String, List<String>> claims = new TreeMap<>();
        for (ViewMember m : members) {
            m.node().ifPresent(n -> {
                current.put(n, m); // a later member of the same node supersedes an earlier one
                incarnation(m.id()).ifPresentOrElse(i -> incarnations.put(n, i), () -> incarnations.remove(n));
                claims.computeIfAbsent(n, k -> new ArrayList<>()).add(m.address());
            });
        }
        currentByNode = Map.copyOf(current);
        List<String> dropped = engine.retainOnly(incarnations);
        dropped.forEach(takenAtNanos::remove);
        dropped.forEach(n -> heldBytes -= bytesByNode.getOrDefault(n, 0));
        dropped.forEach(bytesByNode::remove);

        Map<String, Parked> waiting = new LinkedHashMap<>(parked);
        parked.clear();
        parkedBytes = 0;
        waiting.forEach((sender, p) -> {
            if (byId.containsKey(sender)) {
                take(sender, p.senderNode(), p.record(), p.bytes()).rejected().ifPresent(metrics::rejected);
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
     * @return what became of it: taken or parked (nothing rejected), or why not
     */
    Receipt receive(String senderId, Optional<String> senderNode, byte[] payload, int offset, int length) {
        metrics.received();
        RecordMessages.Decoded decoded;
        try {
            // decoded before the lock: a message of a megabyte keeps no view or record waiting
            decoded = RecordMessages.decode("record from " + senderNode.orElse(senderId), payload, offset, length, protocol);
        } catch (RecordMessages.Unreadable e) {
            metrics.rejected(e.reason());
            return new Receipt(Optional.of(e.reason()), cut(e.getMessage()), Optional.empty(), List.of());
        } catch (RuntimeException e) {
            // Whatever a peer sends, the receive path goes on: a bad payload is counted, never thrown.
            metrics.rejected(RejectReason.MALFORMED);
            return new Receipt(Optional.of(RejectReason.MALFORMED), cut(String.valueOf(e.getMessage())), Optional.empty(), List.of());
        }
        Receipt receipt = judge(senderId, senderNode, decoded.record(), length);
        receipt.rejected().ifPresent(metrics::rejected);
        return new Receipt(receipt.rejected(), receipt.why(), Optional.of(decoded.sender()), decoded.skipped());
    }

    private synchronized Receipt judge(String senderId, Optional<String> senderNode, NodeRecord record, int length) {
        if (!byId.containsKey(senderId)) {
            Parked before = parked.get(senderId);
            int beforeBytes = before == null ? 0 : before.bytes();
            if (before == null && parked.size() >= MAX_PARKED || parkedBytes - beforeBytes + length > maxBytes / PARKED_SHARE) {
                return Receipt.because(RejectReason.NOT_MEMBER);
            }
            if (before == null || before.record().version() < record.version()) {
                parked.put(senderId, new Parked(senderNode, record, length));
                parkedBytes += length - beforeBytes;
            }
            return Receipt.TAKEN;
        }
        return take(senderId, senderNode, record, length);
    }

    /** @return the sentence on one line (control and invisible characters as {@code ?}), cut to {@value #MAX_WHY_CHARS} */
    private static String cut(String why) {
        StringBuilder out = new StringBuilder(Math.min(why.length(), MAX_WHY_CHARS + 1));
        why.codePoints().limit(MAX_WHY_CHARS).forEach(c -> {
            int type = Character.getType(c);
            boolean invisible = type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
            out.appendCodePoint(invisible ? '?' : c);
        });
        return why.codePointCount(0, why.length()) > MAX_WHY_CHARS ? out.append('…').toString() : out.toString();
    }

    private static Optional<UUID> incarnation(String memberId) {
        try {
            UUID id = UUID.fromString(memberId);
            return id.toString().equals(memberId) ? Optional.of(id) : Optional.empty();
        } catch (IllegalArgumentException notAUuid) {
            return Optional.empty();
        }
    }

    /** @return the receipt of a record from a member of the view (counted as rejected by the caller) */
    private Receipt take(String senderId, Optional<String> senderNode, NodeRecord record, int bytes) {
        if (senderNode.isEmpty() || !senderNode.get().equals(record.node())) {
            return foreign("a record of node " + record.node() + " sent by " + senderNode.map(n -> "a member of node " + n)
                    .orElse("a member that names no node"));
        }
        if (!record.incarnation().equals(incarnation(senderId))) {
            return foreign("a record of node " + record.node() + " of incarnation " + record.incarnation().map(UUID::toString).orElse("none")
                    + ", sent by member " + senderId);
        }
        if (record.node().equals(engine.node())) {
            return Receipt.because(RejectReason.OWN);
        }
        ViewMember current = currentByNode.get(record.node());
        if (current == null || !current.id().equals(senderId)) {
            return Receipt.because(RejectReason.SUPERSEDED);
        }
        int before = bytesByNode.getOrDefault(record.node(), 0);
        boolean known = bytesByNode.containsKey(record.node());
        if (!known && (bytesByNode.size() + 1 >= maxRecords || heldBytes + bytes > maxBytes)
                || known && heldBytes - before + bytes > maxBytes) {
            if (!fullLogged) {
                fullLogged = true;
                LOG.log(System.Logger.Level.WARNING, "the cluster holds as many records as this daemon keeps (" + maxRecords
                        + " nodes, " + maxBytes + " bytes of record messages, an eighth of its heap); records that do not fit"
                        + " are rejected and counted (railmap_cluster_records_rejected_total{reason=\"full\"})");
            }
            return Receipt.because(RejectReason.FULL);
        }
        switch (engine.accept(record)) {
            case OWN:
                return Receipt.because(RejectReason.OWN);
            case STALE:
                return Receipt.because(RejectReason.STALE);
            default:
                takenAtNanos.put(record.node(), nanoClock.getAsLong());
                heldBytes += bytes - before;
                bytesByNode.put(record.node(), bytes);
                if (heldBytes < maxBytes * 9 / 10 && bytesByNode.size() + 1 < maxRecords * 9 / 10) {
                    fullLogged = false;
                }
                return Receipt.TAKEN;
        }
    }

    private static Receipt foreign(String why) {
        return new Receipt(Optional.of(RejectReason.FOREIGN), cut(why), Optional.empty(), List.of());
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
            NodeRecord r = m.node().map(records::get)
                    .filter(held -> m.self() || held.incarnation().equals(incarnation(m.id()))).orElse(null);
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

    /** @return the bytes of the record messages held, and of those waiting for a view */
    synchronized long[] bytesHeldAndParked() {
        return new long[] {heldBytes, parkedBytes};
    }
}
