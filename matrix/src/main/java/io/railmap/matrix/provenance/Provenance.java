package io.railmap.matrix.provenance;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.rail.UnknownNodesException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The records a result was computed from, and one digest of them: two daemons that hold the same
 * records for the asked nodes give the same digest, and any change to one of those records (a cable,
 * a port state, a restart) gives another.
 *
 * <p>The digest is {@code sha256:} and the SHA-256, in hex, of the lines {@code node version hash\n}
 * of the records sorted by node. A record's hash is the SHA-256 of its identity,
 * {@code node incarnation version}, when it has an incarnation (one start of its daemon, which raises
 * the version on every change, so the three name one content), else of its canonical JSON
 * ({@link SnapshotCodec#write(NodeRecord)}: same record, same bytes; snapshots written before
 * incarnations). By identity rather than contents, a daemon that reads a newer daemon's record
 * without the fields it does not know (a rolling upgrade) still holds "the same" record, and a digest
 * of a thousand records costs no serialisation. Configs carry it as
 * {@code RAILMAP_TOPOLOGY} and the record ids as {@code RAILMAP_RECORDS} ({@link #TOPOLOGY_VARIABLE},
 * {@link #RECORDS_VARIABLE}), so {@code railmap check} can tell a stale config and name what changed.
 *
 * @param digest  {@code sha256:} and 64 hex digits
 * @param records the record ids, sorted by node
 */
public record Provenance(String digest, List<RecordId> records) {
    /** The variable that carries the digest in env files and mlx.launch hostfiles. */
    public static final String TOPOLOGY_VARIABLE = "RAILMAP_TOPOLOGY";
    /** The variable that carries the record ids, comma-separated. */
    public static final String RECORDS_VARIABLE = "RAILMAP_RECORDS";

    /** Copies the records. */
    public Provenance {
        records = List.copyOf(records);
    }

    /**
     * @param used the records the result was computed from (any order, one per node)
     * @return their provenance
     */
    public static Provenance of(Collection<NodeRecord> used) {
        // one hash per record: its id takes the first 8 hex digits, the digest's line the whole
        Map<String, String> fullHashes = used.stream().collect(Collectors.toMap(NodeRecord::node, Provenance::fullHash));
        List<RecordId> ids = used.stream().map(r -> id(r, fullHashes.get(r.node()))).sorted(Comparator.comparing(RecordId::node)).toList();
        return new Provenance(digest(ids.stream().map(id -> new Line(id.node(), id.version(), fullHashes.get(id.node()))).toList()), ids);
    }

    /**
     * The digest of a set of records that changes a record at a time (what a daemon holds while its
     * cluster converges, asked after every record taken): each record is hashed once while it stays in
     * the set, so a digest of n records costs one SHA-256 of n lines and the hashes of the records
     * new since the last digest, where {@link #of} hashes all n again. Records are told apart by
     * identity: the engine's records are immutable and a changed one is a new object. Thread-safe.
     */
    public static final class Digester {
        private Map<NodeRecord, String> hashes = new IdentityHashMap<>();

        /**
         * @param held the records (any order, one per node)
         * @return {@code Provenance.of(held).digest()}, at the cost above
         */
        public synchronized String digest(Collection<NodeRecord> held) {
            Map<NodeRecord, String> next = new IdentityHashMap<>(held.size() * 2);
            List<Line> lines = new ArrayList<>(held.size());
            for (NodeRecord r : held) {
                String hash = hashes.get(r);
                String full = hash != null ? hash : fullHash(r);
                next.put(r, full);
                lines.add(new Line(r.node(), r.version(), full));
            }
            hashes = next; // only the records held now: bounded by the set
            lines.sort(Comparator.comparing(Line::node));
            return Provenance.digest(lines);
        }
    }

    /** One line of the digest: a record's node, version and full hash. */
    private record Line(String node, long version, String fullHash) {
    }

    /** @param lines sorted by node */
    private static String digest(List<Line> lines) {
        StringBuilder text = new StringBuilder(lines.size() * 96);
        for (Line l : lines) {
            text.append(l.node()).append(' ').append(l.version()).append(' ').append(l.fullHash()).append('\n');
        }
        return "sha256:" + sha256Hex(text.toString());
    }

    /**
     * @param snapshot the records held
     * @param nodes    the nodes a config is for
     * @return the provenance of those nodes' records
     * @throws UnknownNodesException when a node has no record in the snapshot
     */
    public static Provenance of(Snapshot snapshot, List<String> nodes) {
        List<String> unknown = nodes.stream().filter(n -> snapshot.record(n).isEmpty()).distinct().toList();
        if (!unknown.isEmpty()) {
            throw new UnknownNodesException(unknown, snapshot.nodes());
        }
        return of(nodes.stream().distinct().map(n -> snapshot.record(n).orElseThrow()).toList());
    }

    /** @return the id of one record */
    public static RecordId id(NodeRecord record) {
        return id(record, fullHash(record));
    }

    private static RecordId id(NodeRecord record, String fullHash) {
        return new RecordId(record.node(), record.version(), fullHash.substring(0, 8));
    }

    private static String fullHash(NodeRecord record) {
        return sha256Hex(record.incarnation().map(i -> record.node() + " " + i + " " + record.version())
                .orElseGet(() -> SnapshotCodec.write(record)));
    }

    /** @return {@link #records()} as {@code a@12.1f2e3d4c,b@7.9a8b7c6d} */
    public String recordList() {
        return records.stream().map(RecordId::toString).collect(Collectors.joining(","));
    }

    /**
     * What changed between the records a config was made from and the records now held, in words.
     *
     * @param then the record ids the config carries
     * @param now  the records held now, by node
     * @return one phrase per node that changed, left or is new among {@code then}'s nodes, sorted by node
     *         ({@code "b's record changed (version 7 -> 9)"}); empty when none did
     */
    public static List<String> changes(List<RecordId> then, Function<String, Optional<NodeRecord>> now) {
        Map<String, RecordId> before = new TreeMap<>();
        then.forEach(id -> before.put(id.node(), id));
        List<String> out = new ArrayList<>();
        before.forEach((node, id) -> {
            Optional<NodeRecord> record = now.apply(node);
            if (record.isEmpty()) {
                out.add(node + " has no record now (its daemon left or stopped)");
            } else {
                RecordId current = id(record.get());
                if (!current.equals(id)) {
                    out.add(node + "'s record changed (" + (current.version() == id.version()
                            ? "version " + id.version() + ", other contents: a restarted daemon"
                            : "version " + id.version() + " -> " + current.version()) + ")");
                }
            }
        });
        return out;
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
