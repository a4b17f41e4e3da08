package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reading a record as a newer daemon may have written it ({@link SnapshotCodec#readRecordSkipping}):
 * what this code does not know costs a field or a port, never the record, and is told; what it
 * knows stays as strict as in files.
 */
class SnapshotCodecSkippingTest {
    /** A record as a future railmapd might write it: fields and values of no released version. */
    private static final String NEWER = """
            {"node": "b", "incarnation": "6f1c0b6e-2d4a-4c1b-9a7e-0b1c2d3e4f5a", "version": 4, "uptimeS": 12,
             "ports": [
              {"netdev": "en1", "kind": "ethernet", "state": "active", "lanes": 4,
               "neighbours": [{"node": "a", "port": "en1", "seenMs": 10}]},
              {"netdev": "nv0", "kind": "nvlink", "state": "active"},
              {"netdev": "en2", "kind": "ethernet", "state": "degraded"},
              {"netdev": "en3", "kind": "thunderbolt", "state": "down",
               "thunderbolt": {"receptacle": 3, "cableVendor": "x"}}
             ]}
            """;

    private final List<String> skipped = new ArrayList<>();

    private NodeRecord read(String json) {
        return SnapshotCodec.readRecordSkipping(JsonCursor.parse("record from b", json), skipped::add);
    }

    @Test
    void unknownFieldsAreIgnoredAPortOfAnUnknownKindIsLeftOutAndAnUnknownStateReadsAsUnknown() {
        NodeRecord record = read(NEWER);

        assertThat(record.node()).isEqualTo("b");
        assertThat(record.version()).isEqualTo(4);
        assertThat(record.ports()).extracting(Port::netdev).containsExactly("en1", "en2", "en3");
        assertThat(record.port("en1").orElseThrow().neighbours()).hasSize(1);
        assertThat(record.port("en2").orElseThrow().state()).isEqualTo(PortState.UNKNOWN);
        assertThat(record.port("en3").orElseThrow().thunderbolt().orElseThrow().receptacle()).isEqualTo(3);
        assertThat(skipped).containsExactly(
                "$.uptimeS: unknown field ignored",
                "$.ports[0].lanes: unknown field ignored",
                "$.ports[0].neighbours[0].seenMs: unknown field ignored",
                "$.ports[1]: port nv0 of kind \"nvlink\" left out (a kind this daemon does not know)",
                "$.ports[2].state: state \"degraded\" read as unknown (a state this daemon does not know)",
                "$.ports[3].thunderbolt.cableVendor: unknown field ignored");
    }

    @Test
    void aBadPrefixLengthCostsThatLengthOnlyAndIsTold() {
        NodeRecord record = read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"en1\", \"kind\": \"ethernet\","
                + " \"state\": \"active\", \"addresses\": [\"169.254.1.2\", \"fe80::1\"], \"prefixLengths\": {\"169.254.1.2\": 30,"
                + " \"fe80::1\": 129, \"10.9.9.9\": 8, \"x\": 1}}]}");

        Port en1 = record.port("en1").orElseThrow();
        assertThat(en1.prefixLengths()).containsExactly(java.util.Map.entry("169.254.1.2", 30));
        assertThat(skipped).containsExactly(
                "$.ports[0].prefixLengths[\"fe80::1\"]: prefix length 129 is not 0 to 128; left out",
                "$.ports[0].prefixLengths[\"10.9.9.9\"]: a prefix length for an address the port does not list; left out",
                "$.ports[0].prefixLengths[\"x\"]: address \"x\" is not an IP address (IPv4 a.b.c.d without leading zeros, or IPv6); left out");
    }

    @Test
    void aSwitchPortFromAnUnknownSourceIsLeftOutAndThePortKept() {
        NodeRecord record = read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"eth2\", \"kind\": \"roce\","
                + " \"state\": \"active\", \"switchPort\": {\"source\": \"cdp\", \"chassis\": \"leaf0\", \"port\": \"Gi0/1\", \"vlan\": 7}}]}");

        assertThat(record.port("eth2").orElseThrow().switchPort()).isEmpty();
        assertThat(skipped).containsExactly("$.ports[0].switchPort.vlan: unknown field ignored",
                "$.ports[0].switchPort.source: switch port from source \"cdp\" left out (a source this daemon does not know)");
    }

    @Test
    void anUnknownFieldOfTheInfinibandFactsIsIgnoredAndTheFactsKept() {
        NodeRecord record = read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\","
                + " \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"nodeGuid\": \"0x0002c90300336fe0\","
                + " \"peerNodeGuid\": \"0x48210b030096a5cb\", \"peerPort\": 2, \"peerLid\": 7}}]}");

        assertThat(record.port("ib0").orElseThrow().infiniband().flatMap(Infiniband::peerKey)).contains("0x48210b030096a5cb/2");
        assertThat(skipped).containsExactly("$.ports[0].infiniband.peerLid: unknown field ignored");
    }

    @Test
    void aGidIndexThatIsNoIndexOfThePortIsLeftOutAndThePortKept() {
        NodeRecord record = read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"eth2\", \"rdma\": \"mlx5_0\", \"kind\": \"roce\","
                + " \"state\": \"active\", \"gidIndex\": -2}, {\"netdev\": \"eth3\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": 3},"
                + " {\"netdev\": \"eth4\", \"rdma\": \"mlx5_1\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": 5}]}");

        assertThat(record.ports()).extracting(p -> p.gidIndex().orElse(null)).containsExactly(null, null, 5);
        assertThat(skipped).containsExactly("$.ports[0].gidIndex: the number -2 left out (no index in this port's GID table)",
                "$.ports[1].gidIndex: the number 3 left out (no index in this port's GID table)");
    }

    @Test
    void filesStayStrictAboutTheSameRecord() {
        assertThatThrownBy(() -> SnapshotCodec.readRecord("b.json", NEWER))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.path()).isEqualTo("$.uptimeS");
                    assertThat(e.problem()).startsWith("unknown field");
                });
    }

    @Test
    void aRecordThisCodeKnowsReadsTheSameEitherWayAndSkipsNothing() {
        String json = SnapshotCodec.write(read(NEWER));
        skipped.clear();

        assertThat(read(json)).isEqualTo(SnapshotCodec.readRecord("again", json));
        assertThat(skipped).isEmpty();
    }

    @Test
    void aKnownFieldWithABadValueStillFailsTheRecord() {
        assertThatThrownBy(() -> read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"en1\", \"kind\": \"ethernet\","
                + " \"state\": \"active\", \"rateGbps\": \"fast\", \"lanes\": 4}]}"))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.path()).isEqualTo("$.ports[0].rateGbps"));
        assertThatThrownBy(() -> read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"en1\", \"kind\": 7, \"state\": \"active\"}]}"))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.path()).isEqualTo("$.ports[0].kind"));
        assertThatThrownBy(() -> read("{\"node\": \"b\", \"version\": 1, \"ports\": [{\"netdev\": \"en1\", \"kind\": \"ethernet\"}]}"))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.problem()).isEqualTo("missing field \"state\""));
        assertThatThrownBy(() -> read("[1]"))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.problem()).startsWith("expected an object"));
    }
}
