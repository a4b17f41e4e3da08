package io.railmap.daemon.cluster;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.model.NodeRecord;
import java.nio.charset.StandardCharsets;

/**
 * The payload of a record message: the record in railmap's public JSON format
 * ({@link SnapshotCodec}'s record), compact, in UTF-8. One message carries one record; JGroups'
 * headers say who sent it.
 */
final class RecordMessages {
    /** Largest payload taken, in bytes (a record with a hundred ports is about 30 KB). */
    static final int MAX_BYTES = 1 << 20;

    private RecordMessages() {
    }

    /** @return the record as the bytes of a message */
    static byte[] encode(NodeRecord record) {
        return SnapshotCodec.tree(record).toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param source who sent it, for the message of the exception
     * @param bytes  a payload
     * @return the record
     * @throws IllegalArgumentException when the payload is larger than {@value #MAX_BYTES} bytes, not
     *                                  strict UTF-8, or not a valid record (a
     *                                  {@link io.railmap.matrix.codec.FormatException})
     */
    static NodeRecord decode(String source, byte[] bytes, int offset, int length) {
        if (length > MAX_BYTES) {
            throw new IllegalArgumentException(source + ": record of " + length + " bytes exceeds " + MAX_BYTES);
        }
        String text = Utf8.strict(bytes, offset, length)
                .orElseThrow(() -> new IllegalArgumentException(source + ": record is not UTF-8"));
        return SnapshotCodec.readRecord(source, text);
    }
}
