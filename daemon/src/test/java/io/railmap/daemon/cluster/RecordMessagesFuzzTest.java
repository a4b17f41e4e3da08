package io.railmap.daemon.cluster;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the decoding of cluster record messages, what any member (or, without a key, anyone who
 * reaches the cluster port) can send: any payload gives a record or an
 * {@link IllegalArgumentException} with a message, and a record decoded (less what was skipped) is
 * encoded and decoded back unchanged. Seeds: the records of the shipped snapshot, as daemons of this
 * protocol and of the simulated next one send them.
 */
class RecordMessagesFuzzTest {

    static Stream<byte[]> seeds() throws Exception {
        String json = Files.readString(Path.of("../examples/snapshots/two-macs-crossed.json"), StandardCharsets.UTF_8);
        return SnapshotCodec.readSnapshot("two-macs-crossed.json", json).records().stream()
                .map(r -> new NodeRecord(r.node(), r.version(), r.ports(), r.management(), r.rdmaEnabled(), Optional.of(UUID.randomUUID())))
                .flatMap(r -> Stream.of(RecordMessages.encode(r, ClusterProtocol.THIS), RecordMessages.encode(r, ClusterProtocol.SIMULATED_NEXT)));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"protocol\"", "\"min\"", "\"max\"", "\"current\"", "\"record\"", "\"incarnation\"", "\"kind\"",
        "\"state\"", "\"thunderbolt\"", "\"roce\"", "\"degraded\"", "2147483647"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void recordMessage(byte[] payload) {
        RecordMessages.Decoded decoded = Fuzzing.parse(payload,
                () -> RecordMessages.decode("fuzz", payload, 0, payload.length, ClusterProtocol.THIS), IllegalArgumentException.class);
        if (decoded != null) {
            NodeRecord record = decoded.record();
            if (decoded.skipped().size() > RecordMessages.MAX_SKIPPED_LINES || decoded.skippedCount() < decoded.skipped().size()) {
                throw Fuzzing.failure("skipped lines unbounded (" + decoded.skippedCount() + ")", Map.of("payload", payload), null);
            }
            for (String line : decoded.skipped()) {
                if (line.length() > 300 || line.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                    throw Fuzzing.failure("a skipped line that is long or holds a control character: " + line, Map.of("payload", payload), null);
                }
            }
            byte[] again = RecordMessages.encode(record, ClusterProtocol.THIS);
            NodeRecord back = Fuzzing.parse(payload, () -> RecordMessages.decode("again", again, 0, again.length, ClusterProtocol.THIS).record());
            if (!record.equals(back)) {
                throw Fuzzing.failure("a record that decodes back changed (" + back + ")", Map.of("payload", payload), null);
            }
        }
    }
}
