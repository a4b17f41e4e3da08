package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A port's RDMA device limits in snapshot format 7 ({@code rdmaLimits}, docs/snapshot-format.md). */
class SnapshotCodecRdmaLimitsTest {
    private static final String PORT = "{\"netdev\": \"en2\", \"rdma\": \"rdma_en2\", \"kind\": \"thunderbolt\", \"state\": \"active\"";

    private static String snapshot(int version, String portTail) {
        return "{\"format\": \"railmap-snapshot\", \"version\": " + version + ", \"records\": [{\"node\": \"hub\", \"version\": 1,"
                + " \"ports\": [" + PORT + portTail + "}]}]}";
    }

    @Test
    void limitsSurviveARoundTripAndAPortWithoutThemWritesAsBefore() {
        Port with = new Port("hub", "en2", Optional.of("rdma_en2"), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.<Thunderbolt>empty(), List.of()).withRdmaLimits(RdmaLimits.of(3, 6, 100, null));
        Port without = with.withRdmaLimits(Optional.empty()).withState(PortState.DOWN);
        Snapshot s = new Snapshot(List.of(new NodeRecord("hub", 1, List.of(with)), new NodeRecord("b", 1, List.of(
                new Port("b", "en3", Optional.of("rdma_en3"), 1, PortKind.THUNDERBOLT, Optional.empty(), PortState.DOWN,
                        Optional.<Thunderbolt>empty(), List.of())))));

        String json = SnapshotCodec.write(s);

        assertThat(SnapshotCodec.readSnapshot("s.json", json)).isEqualTo(s);
        assertThat(json).contains("\"rdmaLimits\" : {\n", "\"maxQp\" : 3", "\"maxPd\" : 6", "\"maxMr\" : 100", "\"maxCqe\" : null");
        assertThat(json.indexOf("rdmaLimits")).isEqualTo(json.lastIndexOf("rdmaLimits"));
        assertThat(SnapshotCodec.write(new NodeRecord("hub", 1, List.of(without)))).doesNotContain("rdmaLimits");
    }

    @Test
    void strictlyABadValueOrAFieldOfNoReleasedVersionIsAnErrorNamingItsPath() {
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", snapshot(7, ", \"rdmaLimits\": {\"maxQp\": -1}")))
                .hasMessageContaining("s.json").hasMessageContaining("$.records[0].ports[0].rdmaLimits.maxQp")
                .hasMessageContaining("maxQp -1 is negative");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", snapshot(7, ", \"rdmaLimits\": {\"maxQp\": 4294967296}")))
                .hasMessageContaining("$.records[0].ports[0].rdmaLimits.maxQp").hasMessageContaining("out of range");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", snapshot(7, ", \"rdmaLimits\": {\"maxQps\": 3}")))
                .hasMessageContaining("$.records[0].ports[0].rdmaLimits");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", snapshot(6, ", \"rdmaLimits\": {\"maxQp\": 3}")))
                .hasMessageContaining("rdmaLimits");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", snapshot(7, ", \"rdma\": null, \"rdmaLimits\": {\"maxQp\": 3}")
                .replace("\"rdma\": \"rdma_en2\", ", ""))).hasMessageContaining("without an rdma device");
        assertThat(SnapshotCodec.readSnapshot("s.json", snapshot(7, ", \"rdmaLimits\": {\"maxQp\": 11, \"maxCqe\": null}")).records().get(0)
                .port("en2").orElseThrow().rdmaLimits()).isEqualTo(RdmaLimits.of(11, null, null, null));
    }

    @Test
    void readTolerantlyABadValueCostsThatValueNotThePort() {
        List<String> skipped = new ArrayList<>();
        NodeRecord record = SnapshotCodec.readRecordSkipping(JsonCursor.parse("record from hub", "{\"node\": \"hub\", \"version\": 1,"
                + " \"ports\": [" + PORT + ", \"rdmaLimits\": {\"maxQp\": \"eleven\", \"maxPd\": -6, \"maxMr\": 100, \"maxSrq\": 9}},"
                + PORT.replace("en2", "en3") + ", \"rdmaLimits\": {\"maxQp\": 1.5}}]}"), skipped::add);

        assertThat(record.port("en2").orElseThrow().rdmaLimits()).isEqualTo(RdmaLimits.of(null, null, 100, null));
        assertThat(record.port("en3").orElseThrow().rdmaLimits()).isEmpty();
        assertThat(skipped).containsExactly(
                "$.ports[0].rdmaLimits.maxSrq: unknown field ignored",
                "$.ports[0].rdmaLimits.maxQp: expected a whole number, found the string \"eleven\"; left out",
                "$.ports[0].rdmaLimits.maxPd: maxPd -6 is negative (a count from 0 to 2147483647); left out",
                "$.ports[1].rdmaLimits.maxQp: expected a whole number, found the number 1.5; left out");
    }
}
