package io.railmap.matrix.codec;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Cluster;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the snapshot and record reader: any bytes give a snapshot (or record) or a
 * {@link FormatException}, and whatever is read is written and read back unchanged. Seeds: the
 * shipped snapshot (format version 2) and a version-1 snapshot, a snapshot of every cable kind
 * the tests build, and records with incarnation, InfiniBand facts and prefix lengths.
 */
class SnapshotCodecFuzzTest {

    static Stream<byte[]> seeds() {
        Snapshot built = new Cluster().cable("a:en6", "b:en7").cable("a:en7", "b:en6").oneSided("a:en8", "c:en1").snapshot();
        Stream<byte[]> files = Fuzzing.files(Path.of("../examples/snapshots/two-macs-crossed.json"),
                Path.of("src/test/resources/snapshots/two-macs-crossed-v1.json"));
        NodeRecord hca = new NodeRecord("e", 1, List.of(new Port("e", "ib0", Optional.of("mlx4_0"), 2, PortKind.INFINIBAND,
                Optional.of(56.0), PortState.ACTIVE, Optional.empty(), List.of(), false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(new Infiniband(Optional.of("0x0002c90300336fe0"), Optional.of("0x48210b030096a5cb"), Optional.of(1))),
                List.of())));
        NodeRecord routed = new NodeRecord("f", 1, List.of(new Port("f", "en6", Optional.of("rdma_en6"), 1, PortKind.THUNDERBOLT,
                Optional.of(80.0), PortState.ACTIVE, Optional.empty(), List.of("169.254.1.1", "fe80::1"),
                Map.of("169.254.1.1", 30, "fe80::1", 64), true, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                List.of())));
        NodeRecord incarnated = new NodeRecord("d", 3, List.of(), Optional.of("10.0.0.4"), Optional.of(true),
                Optional.of(UUID.fromString("6f1c0b6e-2d4a-4c1b-9a7e-0b1c2d3e4f5a")));
        Stream<String> written = Stream.concat(Stream.of(SnapshotCodec.write(built), SnapshotCodec.write(incarnated), SnapshotCodec.write(hca),
                SnapshotCodec.write(routed)),
                built.records().stream().map(SnapshotCodec::write));
        return Stream.concat(files, written.map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"format\"", "\"railmap-snapshot\"", "\"version\"", "\"records\"", "\"node\"", "\"ports\"",
        "\"netdev\"", "\"rdma\"", "\"rdmaPort\"", "\"kind\"", "\"rateGbps\"", "\"state\"", "\"thunderbolt\"", "\"neighbours\"",
        "\"port\"", "\"domainUuid\"", "\"peerDomainUuid\"", "\"receptacle\"", "\"linkSpeedGbps\"", "\"behindHub\"",
        "\"peerName\"", "\"addresses\"", "\"prefixLengths\"", "\"bridge\"", "\"management\"", "\"rdmaEnabled\"", "\"incarnation\"",
        "\"6f1c0b6e-2d4a-4c1b-9a7e-0b1c2d3e4f5a\"", "\"fe80::1\"", "\"::ffff:1.2.3.4\"",
        "\"169.254.0.1\"", "\"nodeGuid\"", "\"peerNodeGuid\"", "\"peerPort\"", "\"0x0002c90300336fe0\"", "\"roce\"", "\"infiniband\"", "\"ethernet\"", "\"active\"", "\"down\"", "null", "1e999", "-0"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void snapshotOrRecord(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        Snapshot snapshot = Fuzzing.parse(input, () -> SnapshotCodec.readSnapshot("fuzz", text), FormatException.class);
        if (snapshot != null) {
            Snapshot again = Fuzzing.parse(input, () -> SnapshotCodec.readSnapshot("again", SnapshotCodec.write(snapshot)));
            if (!snapshot.equals(again)) {
                throw Fuzzing.failure("a snapshot that reads back changed (" + again + ")", Map.of("input", input), null);
            }
        }
        NodeRecord record = Fuzzing.parse(input, () -> SnapshotCodec.readRecord("fuzz", text), FormatException.class);
        if (record != null) {
            NodeRecord again = Fuzzing.parse(input, () -> SnapshotCodec.readRecord("again", SnapshotCodec.write(record)));
            if (!record.equals(again)) {
                throw Fuzzing.failure("a record that reads back changed (" + again + ")", Map.of("input", input), null);
            }
        }
    }
}
