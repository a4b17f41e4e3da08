package io.railmap.daemon.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.model.NodeRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The payload of a record message, compact JSON in UTF-8; one message carries one record, and
 * JGroups' headers say who sent it:
 *
 * <pre>
 * {"protocol": {"min": 1, "max": 1, "current": 1},
 *  "record": {"node": "b", "incarnation": "6f1c0b6e-…", "version": 3, …}}
 * </pre>
 *
 * {@code protocol} is the sender's {@link ClusterProtocol}; {@code record} is the record in railmap's
 * public format ({@link SnapshotCodec}), whose {@code incarnation} is required here: it is the
 * sending member's identity. A reader ignores fields it does not know, in the message and in the
 * record, and skips a port of a kind it does not know
 * ({@link SnapshotCodec#readRecordSkipping}); the protocol and record are otherwise read strictly.
 * The format is specified in {@code daemon/CLUSTER.md} ("The protocol").
 */
final class RecordMessages {
    /**
     * Largest payload taken, in bytes: 256 KiB. Measured (RecordIntakeTest): 64 ports, each with an
     * RDMA device, two addresses, a switch port and a far end, about 24 KB; 8 ports on switched rails
     * that each hear 255 far ends, about 97 KB.
     */
    static final int MAX_BYTES = 256 << 10;
    /** Most lines kept of what one message had that this daemon skipped (the count goes on). */
    static final int MAX_SKIPPED_LINES = 8;

    private static final Set<String> MESSAGE_FIELDS = Set.of("protocol", "record");
    private static final Set<String> PROTOCOL_FIELDS = Set.of("min", "max", "current");

    /**
     * A message read.
     *
     * @param sender       the versions the sender reads and writes
     * @param record       the record, without what this daemon skipped
     * @param skipped      what was skipped (fields, ports), at most {@value #MAX_SKIPPED_LINES} lines
     * @param skippedCount how many things were skipped in all
     */
    record Decoded(ClusterProtocol sender, NodeRecord record, List<String> skipped, int skippedCount) {
    }

    /** A payload this daemon does not take, with the reason to count and a sentence for the log. */
    static final class Unreadable extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final transient RejectReason reason;

        Unreadable(RejectReason reason, String message) {
            super(message);
            this.reason = reason;
        }

        /** @return {@link RejectReason#TOO_LARGE}, {@link RejectReason#MALFORMED} or {@link RejectReason#PROTOCOL} */
        RejectReason reason() {
            return reason;
        }
    }

    private RecordMessages() {
    }

    /**
     * @param record   this node's record (with its incarnation)
     * @param speaking the protocol this daemon speaks; {@link ClusterProtocol#SIMULATED_NEXT} adds
     *                 what that test hook's version 2 adds: a record field {@code simulatedNext}, a
     *                 field {@code lanes} on every port, and a port {@code simnext0} of kind
     *                 {@code simulated-next}, none of which version 1 knows
     * @return the message's bytes
     */
    static byte[] encode(NodeRecord record, ClusterProtocol speaking) {
        ObjectNode message = JsonText.object();
        message.putObject("protocol").put("min", speaking.min()).put("max", speaking.max()).put("current", speaking.current());
        ObjectNode tree = SnapshotCodec.tree(record);
        // Protocol 1 names a neighbour's netdev "port", as daemons before snapshot version 6 read it (they
        // would refuse "netdev"); this code reads either. The next protocol version can write "netdev".
        tree.withArray("ports").forEach(p -> p.withArray("neighbours").forEach(n -> {
            ObjectNode neighbour = (ObjectNode) n;
            neighbour.set("port", neighbour.remove("netdev"));
        }));
        if (speaking.equals(ClusterProtocol.SIMULATED_NEXT)) {
            tree.put("simulatedNext", true);
            tree.withArray("ports").forEach(p -> ((ObjectNode) p).put("lanes", 1));
            tree.withArray("ports").addObject().put("netdev", "simnext0").put("kind", "simulated-next").put("state", "active");
        }
        message.set("record", tree);
        return message.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param source who sent it, for messages
     * @param bytes  a payload
     * @param reader the protocol this daemon reads
     * @return the message
     * @throws Unreadable {@link RejectReason#PROTOCOL} when the message is written in a version
     *                    {@code reader} does not read, naming both sides' versions;
     *                    {@link RejectReason#TOO_LARGE} when the payload is larger than
     *                    {@value #MAX_BYTES} bytes; {@link RejectReason#MALFORMED} when it is not strict UTF-8, not JSON, without a valid
     *                    {@code protocol} or {@code record}, or the record breaks a rule of the
     *                    format or has no incarnation (the message names the JSON path)
     */
    static Decoded decode(String source, byte[] bytes, int offset, int length, ClusterProtocol reader) {
        if (length > MAX_BYTES) {
            throw new Unreadable(RejectReason.TOO_LARGE, source + ": " + length + " bytes, over the " + MAX_BYTES
                    + " a record message may have");
        }
        String text = Utf8.strict(bytes, offset, length)
                .orElseThrow(() -> new Unreadable(RejectReason.MALFORMED, source + ": not UTF-8"));
        List<String> skipped = new ArrayList<>();
        int[] count = {0};
        try {
            JsonCursor message = JsonCursor.parse(source, text);
            message.unknownFields(MESSAGE_FIELDS).forEach(path -> skip(path + ": unknown field ignored", skipped, count));
            JsonCursor protocol = message.field("protocol");
            protocol.unknownFields(PROTOCOL_FIELDS).forEach(path -> skip(path + ": unknown field ignored", skipped, count));
            ClusterProtocol sender = protocol.as(p -> new ClusterProtocol(p.field("min").smallInteger(), p.field("max").smallInteger(),
                    p.field("current").smallInteger()));
            if (!reader.reads(sender)) {
                throw new Unreadable(RejectReason.PROTOCOL, source + ": " + reader.whyNotRead(sender));
            }
            JsonCursor at = message.field("record");
            NodeRecord record = SnapshotCodec.readRecordSkipping(at, line -> skip(line, skipped, count));
            if (record.incarnation().isEmpty()) {
                throw at.fail("no incarnation (a member's record names the start of the daemon that sent it)");
            }
            return new Decoded(sender, record, List.copyOf(skipped), count[0]);
        } catch (FormatException e) {
            throw new Unreadable(RejectReason.MALFORMED, e.getMessage());
        }
    }

    private static void skip(String line, List<String> lines, int[] count) {
        count[0]++;
        if (lines.size() < MAX_SKIPPED_LINES) {
            lines.add(line);
        }
    }
}
