package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SnapshotCodecTest {

    @Test
    void aSnapshotSurvivesARoundTrip() {
        Thunderbolt tb = new Thunderbolt(Optional.of("817dcfa4-b481-4100-80fc-91c7aa969f0b"),
                Optional.of("28CA4C30-A263-4C55-B302-953416D0B209"), 1, Optional.of(80.0), false, Optional.of("Mac Studio"));
        Snapshot s = new Snapshot(List.of(
                new NodeRecord("mbp", 4, List.of(new Port("mbp", "en1", Optional.of("rdma_en1"), 1, PortKind.THUNDERBOLT,
                        Optional.of(80.0), PortState.ACTIVE, Optional.of(tb), List.of()))),
                new Cluster().cable("a:veth0", "b:veth0").snapshot().records().get(0)));

        String json = SnapshotCodec.write(s);

        assertThat(SnapshotCodec.readSnapshot("s.json", json)).isEqualTo(s);
        assertThat(json).contains("\"format\" : \"railmap-snapshot\"", "\"domainUuid\" : \"817DCFA4-B481-4100-80FC-91C7AA969F0B\"");
    }

    @Test
    void optionalFieldsMayBeLeftOut() {
        NodeRecord r = SnapshotCodec.readRecord("a.json",
                "{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"veth0\", \"kind\": \"ethernet\", \"state\": \"down\"}]}");
        Port p = r.ports().get(0);
        assertThat(p.rdma()).isEmpty();
        assertThat(p.rdmaPort()).isEqualTo(1);
        assertThat(p.rateGbps()).isEmpty();
        assertThat(p.neighbours()).isEmpty();
        assertThat(p.state()).isEqualTo(PortState.DOWN);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not JSON|{\"format\": |$|not valid JSON (line 1",
        "wrong format|{\"format\": \"other\", \"version\": 1, \"records\": []}|$.format|expected \"railmap-snapshot\"",
        "future version|{\"format\": \"railmap-snapshot\", \"version\": 2, \"records\": []}|$.version|unknown snapshot version 2",
        "unknown field|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [], \"extra\": 1}|$.extra|unknown field",
        "records not an array|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": {}}|$.records|expected an array",
        "bad kind|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"wifi\", \"state\": \"active\"}]}]}|$.records[0].ports[0].kind|unknown port kind \"wifi\"",
        "negative rate|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"rateGbps\": -5}]}]}|$.records[0].ports[0]|rate must be a finite number",
        "typo in a port field|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"rateGpbs\": 5}]}]}|$.records[0].ports[0].rateGpbs|unknown field",
        "missing netdev|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"kind\": \"roce\", \"state\": \"active\"}]}]}|$.records[0].ports[0]|missing field \"netdev\"",
        "two records for a node|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": []}, {\"node\": \"a\", \"version\": 2, \"ports\": []}]}|$.records|two records for node a",
        "colon in a node name|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a:b\", \"version\": 1, \"ports\": []}]}|$.records[0].node|must not contain ':'",
        "duplicate key|{\"format\": \"railmap-snapshot\", \"format\": \"railmap-snapshot\", \"version\": 1, \"records\": []}|$|Duplicate field",
        "trailing garbage|{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": []} x|$|not valid JSON",
        "fractional version|{\"format\": \"railmap-snapshot\", \"version\": 1.5, \"records\": []}|$.version|expected a whole number",
    })
    void malformedSnapshotsNameTheFileThePathAndTheProblem(String what, String json, String path, String problem) {
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("cluster.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.source()).isEqualTo("cluster.json");
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.problem()).contains(problem);
                    assertThat(e.getMessage()).startsWith("cluster.json: at " + path + ": ");
                });
    }

    @Test
    void anEmptyDocumentIsAnError() {
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("empty.json", "  ")).hasMessageContaining("empty.json: at $:");
    }

    @Test
    void textFromTheDocumentIsShownEscapedAndCutInErrors() {
        String ports = "\"ports\": []";
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", "{\"node\": \"evil\\u001b[2J\\nname\", \"version\": 1, " + ports + "}"))
                .hasMessage("r.json: at $.node: node name \"evil\\x1b[2J\\nname\" contains a control or invisible character");

        String tenMegabytes = "k".repeat(10_000_000);
        // Jackson takes field names of up to 50,000 characters
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"version\": 1, " + ports + ", \""
                + "k".repeat(40_000) + "\": 1}"))
                .hasMessageStartingWith("r.json: at $." + "k".repeat(64) + "…(39936 more): unknown field");
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"version\": \"" + tenMegabytes + "\", " + ports + "}"))
                .hasMessage("r.json: at $.version: expected a whole number, found the string \"" + "k".repeat(64) + "…(9999936 more)\"");
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \""
                + tenMegabytes + "\", \"kind\": \"ethernet\", \"state\": \"up\\u202e\"}]}"))
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300).doesNotContain("\n", "\u202e"));
    }

    /**
     * Found by SnapshotCodecFuzzTest: a port without RDMA but with rdmaPort 2 was read, written with
     * rdmaPort null, and read back as port 1: a record that changed on its way through a daemon.
     */
    @Test
    void anRdmaPortNumberWithoutAnRdmaDeviceIsAnError() {
        String record = "{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"eng6\", \"rdmaPort\": 2,"
                + " \"kind\": \"roce\", \"rateGbps\": 100.0, \"state\": \"active\", \"thunderbolt\": null,"
                + " \"neighbours\": [{\"node\": \"a\", \"port\": \"en6\"}]}]}";

        assertThatThrownBy(() -> SnapshotCodec.readRecord("b.json", record))
                .isInstanceOf(FormatException.class)
                .hasMessage("b.json: at $.ports[0].rdmaPort: rdmaPort 2 without an rdma device (a port without RDMA is port 1)");
        assertThat(SnapshotCodec.readRecord("b.json", record.replace("\"rdmaPort\": 2", "\"rdmaPort\": 1")).ports())
                .singleElement().satisfies(p -> assertThat(p.rdmaPort()).isEqualTo(1));
    }
}
