package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A record's ranks in snapshot format version 7: written, read back, refused before 7, skipped one by one in cluster messages. */
class SnapshotCodecRanksTest {
    private static final String DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private static LocalRank rank(long pid) {
        return new LocalRank(pid, 1_764_390_000_000L + pid, Map.of("MLX_RANK", "1", "MLX_IBV_DEVICES", "/tmp/hosts_1.json"),
                Optional.of(List.of(List.of("rdma_en5"), List.of(), List.of("rdma_en3", "rdma_en5"))), Optional.of(DIGEST));
    }

    @Test
    void ranksRoundTripThroughASnapshotAndARecord() {
        NodeRecord record = new NodeRecord("a", 3, List.of()).withRanks(List.of(rank(77), rank(5),
                new LocalRank(9, 0, Map.of("NCCL_IB_HCA", "=mlx5_0:1"), Optional.empty(), Optional.empty())));

        String json = SnapshotCodec.write(new Snapshot(List.of(record)));
        assertThat(json).contains("\"version\" : 7").contains("\"devices\" : [ \"rdma_en5\", null, [ \"rdma_en3\", \"rdma_en5\" ] ]");
        Snapshot back = SnapshotCodec.readSnapshot("s.json", json);
        assertThat(back.records().get(0)).isEqualTo(record);
        assertThat(back.records().get(0).ranks()).extracting(LocalRank::pid).containsExactly(5L, 9L, 77L);
        assertThat(SnapshotCodec.readRecord("r.json", SnapshotCodec.write(record))).isEqualTo(record);
    }

    @Test
    void aVersion6SnapshotReadsWithNoRanksAndRefusesTheField() {
        String v6 = "{\"format\": \"railmap-snapshot\", \"version\": 6, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": []}]}";
        assertThat(SnapshotCodec.readSnapshot("s.json", v6).records().get(0).ranks()).isEmpty();

        String withRanks = v6.replace("\"ports\": []", "\"ports\": [], \"ranks\": []");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", withRanks))
                .hasMessageContaining("$.records[0].ranks").hasMessageContaining("unknown field");
    }

    @Test
    void strictReadingRefusesASettingOutsideTheAllowListAndTooManyRanks() {
        String secret = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": [{\"pid\": 5, \"startedMs\": 1,"
                + " \"settings\": {\"AWS_SECRET_ACCESS_KEY\": \"x\"}}]}";
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", secret))
                .hasMessageContaining("$.ranks[0]").hasMessageContaining("not a collective setting");

        String many = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": ["
                + IntStream.rangeClosed(1, JobVariables.MAX_RANKS_PER_NODE + 1).mapToObj(p -> "{\"pid\": " + p + ", \"startedMs\": 1}")
                .collect(Collectors.joining(", ")) + "]}";
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", many)).hasMessageContaining("at most " + JobVariables.MAX_RANKS_PER_NODE);
    }

    @Test
    void readTolerantlyABadRankCostsThatRankOnlyAndAnUnknownSettingItsSetting() {
        List<String> skipped = new ArrayList<>();
        String json = "{\"node\": \"b\", \"version\": 2, \"ports\": [], \"ranks\": ["
                + "{\"pid\": 0, \"startedMs\": 1},"
                + "{\"pid\": 7, \"startedMs\": 1, \"settings\": {\"MLX_RANK\": \"0\", \"FUTURE_RANK\": \"3\"}, \"cpu\": 2},"
                + "{\"pid\": 8, \"startedMs\": 1, \"devices\": [\"" + "x".repeat(65) + "\"]},"
                + "{\"pid\": 7, \"startedMs\": 2},"
                + "{\"pid\": 9, \"startedMs\": 1, \"hostfile\": \"nothex\"}]}";

        NodeRecord record = SnapshotCodec.readRecordSkipping(JsonCursor.parse("record from b", json), skipped::add);

        assertThat(record.ranks()).extracting(LocalRank::pid).containsExactly(7L);
        assertThat(record.ranks().get(0).settings()).containsOnlyKeys("MLX_RANK");
        assertThat(skipped).hasSize(6);
        assertThat(skipped.get(0)).startsWith("$.ranks[0]: rank left out: ").contains("below 1");
        assertThat(skipped.get(1)).isEqualTo("$.ranks[1].cpu: unknown field ignored");
        assertThat(skipped.get(2)).isEqualTo("$.ranks[1].settings[\"FUTURE_RANK\"]: setting left out (a name this daemon does not hold)");
        assertThat(skipped.get(3)).startsWith("$.ranks[2]: rank left out: ").contains("longer than 64");
        assertThat(skipped.get(4)).startsWith("$.ranks[3]: rank left out: ").contains("a second rank of process 7");
        assertThat(skipped.get(5)).startsWith("$.ranks[4]: rank left out: ").contains("64 lower-case hex");
    }

    @Test
    void readTolerantlyRanksPastTheBoundAreLeftOutAndANonArrayIsSkipped() {
        List<String> skipped = new ArrayList<>();
        String many = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": ["
                + IntStream.rangeClosed(1, JobVariables.MAX_RANKS_PER_NODE + 2).mapToObj(p -> "{\"pid\": " + p + ", \"startedMs\": 1}")
                .collect(Collectors.joining(", ")) + "]}";
        assertThat(SnapshotCodec.readRecordSkipping(JsonCursor.parse("m", many), skipped::add).ranks()).hasSize(JobVariables.MAX_RANKS_PER_NODE);
        assertThat(skipped).hasSize(2).allMatch(l -> l.contains("past the " + JobVariables.MAX_RANKS_PER_NODE));

        skipped.clear();
        NodeRecord odd = SnapshotCodec.readRecordSkipping(JsonCursor.parse("m", "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": 3}"),
                skipped::add);
        assertThat(odd.ranks()).isEmpty();
        assertThat(skipped).containsExactly("$.ranks: the number 3 is no array of ranks; left out");
    }

    @Test
    void anEmptyDeviceNameWhichNoDevicesFileMayWriteIsRefusedSoEveryRecordReadCanBeWrittenAgain() {
        String json = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": [{\"pid\": 5, \"startedMs\": 1, \"devices\": [\"\"]}]}";
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", json)).hasMessageContaining("an empty device name");
        List<String> skipped = new ArrayList<>();
        NodeRecord record = SnapshotCodec.readRecordSkipping(JsonCursor.parse("m", json), skipped::add);
        assertThat(record.ranks()).isEmpty();
        assertThat(SnapshotCodec.readRecord("again", SnapshotCodec.write(record))).isEqualTo(record);
    }
}
