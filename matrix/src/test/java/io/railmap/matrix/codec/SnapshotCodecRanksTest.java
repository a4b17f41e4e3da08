package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.RingEntry;
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
                Optional.of(List.of(List.of("rdma_en5"), List.of(), List.of("rdma_en3", "rdma_en5"))), Optional.of(DIGEST), Optional.empty());
    }

    @Test
    void ranksRoundTripThroughASnapshotAndARecord() {
        NodeRecord record = new NodeRecord("a", 3, List.of()).withRanks(List.of(rank(77), rank(5),
                new LocalRank(9, 0, Map.of("NCCL_IB_HCA", "=mlx5_0:1"), Optional.empty(), Optional.empty(), Optional.empty())));

        String json = SnapshotCodec.write(new Snapshot(List.of(record)));
        assertThat(json).contains("\"version\" : 7").contains("\"devices\" : [ \"rdma_en5\", null, [ \"rdma_en3\", \"rdma_en5\" ] ]");
        Snapshot back = SnapshotCodec.readSnapshot("s.json", json);
        assertThat(back.records().get(0)).isEqualTo(record);
        assertThat(back.records().get(0).ranks()).extracting(LocalRank::pid).containsExactly(5L, 9L, 77L);
        assertThat(SnapshotCodec.readRecord("r.json", SnapshotCodec.write(record))).isEqualTo(record);
    }

    @Test
    void aRingRanksHostfileEntryRoundTripsAndIsWrittenNullWithoutOne() {
        LocalRank ring = new LocalRank(12, 1, Map.of("MLX_RANK", "1", "MLX_HOSTFILE", "/tmp/tmp.x"), Optional.empty(), Optional.of(DIGEST),
                Optional.of(new RingEntry(4, List.of("169.254.200.2:5002", "169.254.200.4:5003"))));
        NodeRecord record = new NodeRecord("b", 3, List.of()).withRanks(List.of(ring, rank(5)));

        String json = SnapshotCodec.write(new Snapshot(List.of(record)));

        assertThat(json).contains("\"ring\" : {\n").contains("\"ranks\" : 4,").contains("\"addresses\" : [ \"169.254.200.2:5002\","
                + " \"169.254.200.4:5003\" ]").contains("\"ring\" : null");
        assertThat(SnapshotCodec.readSnapshot("s.json", json).records().get(0)).isEqualTo(record);
        assertThat(SnapshotCodec.readRecord("r.json", SnapshotCodec.write(record))).isEqualTo(record);
    }

    @Test
    void aBadRingEntryIsRefusedStrictlyAndReadTolerantlyCostsTheEntryNotTheRank() {
        String base = "{\"pid\": %d, \"startedMs\": 1, \"settings\": {\"MLX_RANK\": \"0\"}, \"hostfile\": \"" + DIGEST + "\", \"ring\": %s}";
        List<String> bad = List.of(
                "{\"ranks\": 2, \"addresses\": [\"studio-b.local:5000\"]}",   // a host name: never published
                "{\"ranks\": 2, \"addresses\": [\"010.0.0.1:5000\"]}",        // glibc reads 010 as octal 8
                "{\"ranks\": 2, \"addresses\": [\"10.0.0.1:0\"]}",
                "{\"ranks\": 0, \"addresses\": []}",
                "{\"ranks\": 2, \"addresses\": [" + IntStream.range(0, JobVariables.MAX_RING_ADDRESSES + 1)
                        .mapToObj(i -> "\"10.0.0.1:" + (5000 + i) + "\"").collect(Collectors.joining(", ")) + "]}",
                "{\"ranks\": 2, \"addresses\": \"10.0.0.1:5000\"}",
                "{\"ranks\": 2, \"addresses\": [], \"wires\": 1}");
        for (String ring : bad) {
            String one = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": [" + String.format(base, 5, ring) + "]}";
            assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", one)).as(ring).hasMessageContaining("$.ranks[0].ring");
        }
        List<String> skipped = new ArrayList<>();
        String json = "{\"node\": \"a\", \"version\": 1, \"ports\": [], \"ranks\": [" + IntStream.range(0, bad.size())
                .mapToObj(i -> String.format(base, i + 1, bad.get(i))).collect(Collectors.joining(", "))
                + ", {\"pid\": 99, \"startedMs\": 1, \"ring\": {\"ranks\": 2, \"addresses\": [\"10.0.0.1:5000\"]}}]}";

        NodeRecord record = SnapshotCodec.readRecordSkipping(JsonCursor.parse("record from a", json), skipped::add);

        assertThat(record.ranks()).hasSize(bad.size() + 1).filteredOn(r -> r.pid() != 7).allSatisfy(r -> assertThat(r.ring()).isEmpty());
        // an unknown field of a newer daemon's costs that field only
        assertThat(record.ranks()).filteredOn(r -> r.pid() == 7).singleElement()
                .satisfies(r -> assertThat(r.ring()).contains(new RingEntry(2, List.of())));
        assertThat(record.ranks()).filteredOn(r -> r.pid() < 99).allSatisfy(r -> assertThat(r.hostfile()).contains(DIGEST));
        assertThat(skipped).filteredOn(l -> l.contains("left out, rank kept")).hasSize(bad.size() - 1);
        assertThat(skipped).contains("$.ranks[6].ring.wires: unknown field ignored",
                "$.ranks[7].ring: left out (a ring entry without its hostfile's digest)");
        assertThat(skipped.get(0)).startsWith("$.ranks[0].ring: left out, rank kept: ").contains("is not an IPv4 address");
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
