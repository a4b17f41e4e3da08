package io.railmap.daemon.cluster;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the decoding of cluster record messages, what any member (or, without a key, anyone who
 * reaches the cluster port) can send: any payload gives a record or an
 * {@link IllegalArgumentException} with a message, and a record decoded is encoded and decoded back
 * unchanged. Seeds: the records of the shipped snapshot, as daemons send them.
 */
class RecordMessagesFuzzTest {

    static Stream<byte[]> seeds() throws Exception {
        String json = Files.readString(Path.of("../examples/snapshots/two-macs-crossed.json"), StandardCharsets.UTF_8);
        return SnapshotCodec.readSnapshot("two-macs-crossed.json", json).records().stream().map(RecordMessages::encode);
    }

    @MethodSource("seeds")
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void recordMessage(byte[] payload) {
        NodeRecord record = Fuzzing.parse(payload, () -> RecordMessages.decode("fuzz", payload, 0, payload.length),
                IllegalArgumentException.class);
        if (record != null) {
            byte[] again = RecordMessages.encode(record);
            NodeRecord back = Fuzzing.parse(payload, () -> RecordMessages.decode("again", again, 0, again.length));
            if (!record.equals(back)) {
                throw Fuzzing.failure("a record that decodes back changed (" + back + ")", Map.of("payload", payload), null);
            }
        }
    }
}
