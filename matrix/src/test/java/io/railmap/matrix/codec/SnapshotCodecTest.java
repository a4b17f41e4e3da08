package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.Cluster;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.Thunderbolt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
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

    /** A Linux XDomain link names its XDomain device; a macOS one writes no such field. */
    @Test
    void aLinuxThunderboltLinkCarriesItsXdomainThroughARoundTripAndAMacOneWritesNone() {
        Thunderbolt linux = new Thunderbolt(Optional.of("c6030000-0080-7518-2391-a4e51a82e819"),
                Optional.of("817DCFA4-B481-4100-80FC-91C7AA969F0B"), 1, Optional.of(40.0), false, Optional.of("strix-1"), Optional.of("0-1"));
        Snapshot s = new Snapshot(List.of(new NodeRecord("strix", 2, List.of(new Port("strix", "thunderbolt0", Optional.of("usb4_rdma4"), 1,
                PortKind.THUNDERBOLT, Optional.of(40.0), PortState.ACTIVE, Optional.of(linux), List.of())))));

        String json = SnapshotCodec.write(s);

        assertThat(SnapshotCodec.readSnapshot("s.json", json)).isEqualTo(s);
        assertThat(json).contains("\"xdomain\" : \"0-1\"", "\"domainUuid\" : \"C6030000-0080-7518-2391-A4E51A82E819\"");
        assertThat(SnapshotCodec.write(new Cluster().cable("a:veth0", "b:veth0").snapshot())).doesNotContain("xdomain");
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", json.replace("\"0-1\"", "\"0-1/../x\"")))
                .isInstanceOf(FormatException.class).hasMessageContaining("is not <domain>-<hex route>");
    }

    /** Version 6 renamed a neighbour's "port" to "netdev" (docs/glossary.md); what was written before still reads. */
    @Test
    void aNeighboursNetdevReadsUnderItsOldNameFromVersionFiveAndFromARecordAlone() {
        String port = "{\"netdev\": \"en6\", \"kind\": \"thunderbolt\", \"state\": \"active\", \"neighbours\": [{\"node\": \"b\", \"%s\": \"en7\"}]}";
        String record = "{\"node\": \"a\", \"version\": 1, \"ports\": [" + port + "]}";
        PortRef far = PortRef.parse("b:en7");
        Snapshot v5 = SnapshotCodec.readSnapshot("v5.json", "{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": ["
                + record.formatted("port") + "]}");
        assertThat(v5.records().get(0).ports().get(0).neighbours()).containsExactly(far);
        assertThat(SnapshotCodec.write(v5)).contains("\"netdev\" : \"en7\"").doesNotContain("\"port\"");
        for (String name : List.of("port", "netdev")) {
            assertThat(SnapshotCodec.readRecord("r.json", record.formatted(name)).ports().get(0).neighbours()).containsExactly(far);
        }
        String both = record.formatted("port").replace("\"port\": \"en7\"", "\"port\": \"en7\", \"netdev\": \"en7\"");
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", both)).isInstanceOf(FormatException.class)
                .hasMessageContaining("$.ports[0].neighbours[0]").hasMessageContaining("not both");
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
        "future version|{\"format\": \"railmap-snapshot\", \"version\": 8, \"records\": []}|$.version|unknown snapshot version 8",
        "a neighbour's netdev named port in version 6|{\"format\": \"railmap-snapshot\", \"version\": 6, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"neighbours\": [{\"node\": \"b\", \"port\": \"e\"}]}]}]}|$.records[0].ports[0].neighbours[0].port|unknown field",
        "a neighbour's netdev named netdev in version 5|{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"neighbours\": [{\"node\": \"b\", \"netdev\": \"e\"}]}]}]}|$.records[0].ports[0].neighbours[0].netdev|unknown field",
        "prefix lengths in version 4|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"addresses\": [\"10.0.0.1\"], \"prefixLengths\": {\"10.0.0.1\": 24}}]}]}|$.records[0].ports[0].prefixLengths|unknown field",
        "prefix length of an address the port lacks|{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"addresses\": [\"10.0.0.1\"], \"prefixLengths\": {\"10.0.0.2\": 24}}]}]}|$.records[0].ports[0].prefixLengths[\"10.0.0.2\"]|a prefix length for an address the port does not list",
        "IPv4 prefix length 33|{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"addresses\": [\"10.0.0.1\"], \"prefixLengths\": {\"10.0.0.1\": 33}}]}]}|$.records[0].ports[0].prefixLengths[\"10.0.0.1\"]|prefix length 33 is not 0 to 32",
        "prefix length as text|{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"addresses\": [\"fe80::1\"], \"prefixLengths\": {\"fe80::1\": \"64\"}}]}]}|$.records[0].ports[0].prefixLengths[\"fe80::1\"]|expected a whole number",
        "one address's prefix length twice|{\"format\": \"railmap-snapshot\", \"version\": 5, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"ethernet\", \"state\": \"active\", \"addresses\": [\"fe80::1\"], \"prefixLengths\": {\"fe80::1\": 64, \"FE80:0::1\": 64}}]}]}|$.records[0].ports[0].prefixLengths[\"FE80:0::1\"]|a second prefix length for fe80::1",
        "InfiniBand facts in version 3|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": null}]}]}|$.records[0].ports[0].infiniband|unknown field",
        "InfiniBand GUID of 15 digits|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"nodeGuid\": \"0x002c90300336fe0\"}}]}]}|$.records[0].ports[0].infiniband|HCA node GUID \"0x002c90300336fe0\" is not 0x and 16 hex digits",
        "InfiniBand peer GUID without its port|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"peerNodeGuid\": \"0x0002c90300336fe0\"}}]}]}|$.records[0].ports[0].infiniband|node GUID and port come together",
        "InfiniBand peer port 0|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"peerNodeGuid\": \"0x0002c90300336fe0\", \"peerPort\": 0}}]}]}|$.records[0].ports[0].infiniband|peer HCA port 0 is not 1 to 255",
        "InfiniBand facts without RDMA|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"nodeGuid\": \"0x0002c90300336fe0\"}}]}]}|$.records[0].ports[0]|InfiniBand HCA facts without an RDMA device",
        "typo in InfiniBand facts|{\"format\": \"railmap-snapshot\", \"version\": 4, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"ib0\", \"rdma\": \"mlx4_0\", \"kind\": \"infiniband\", \"state\": \"active\", \"infiniband\": {\"peerGuid\": \"0x0002c90300336fe0\"}}]}]}|$.records[0].ports[0].infiniband.peerGuid|unknown field",
        "switch port in version 2|{\"format\": \"railmap-snapshot\", \"version\": 2, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"switchPort\": null}]}]}|$.records[0].ports[0].switchPort|unknown field",
        "switch port of an unknown source|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"switchPort\": {\"source\": \"cdp\", \"chassis\": \"x\", \"port\": \"1\"}}]}]}|$.records[0].ports[0].switchPort.source|unknown far-end source \"cdp\"",
        "switch port without a port|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"switchPort\": {\"source\": \"lldp\", \"chassis\": \"x\"}}]}]}|$.records[0].ports[0].switchPort|missing field \"port\"",
        "GID index in version 2|{\"format\": \"railmap-snapshot\", \"version\": 2, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"rdma\": \"mlx5_0\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": 3}]}]}|$.records[0].ports[0].gidIndex|unknown field",
        "negative GID index|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"rdma\": \"mlx5_0\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": -1}]}]}|$.records[0].ports[0].gidIndex|GID index -1 is negative",
        "GID index as text|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"rdma\": \"mlx5_0\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": \"3\"}]}]}|$.records[0].ports[0].gidIndex|expected a whole number",
        "GID index without RDMA|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"gidIndex\": 3}]}]}|$.records[0].ports[0]|GID index 3 without an RDMA device",
        "switch name with a newline|{\"format\": \"railmap-snapshot\", \"version\": 3, \"records\": [{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"e\", \"kind\": \"roce\", \"state\": \"active\", \"switchPort\": {\"source\": \"lldp\", \"chassis\": \"x\", \"name\": \"leaf\\n0\", \"port\": \"p1\"}}]}]}|$.records[0].ports[0].switchPort|holds a control or invisible character",
        "version 0|{\"format\": \"railmap-snapshot\", \"version\": 0, \"records\": []}|$.version|unknown snapshot version 0",
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

    @Test
    void theNewestVersionCarriesAddressesBridgeManagementRdmaStateAndSwitchPortsThroughARoundTrip() {
        Thunderbolt tb = new Thunderbolt(Optional.of("817DCFA4-B481-4100-80FC-91C7AA969F0B"), Optional.empty(), 2,
                Optional.of(80.0), false, Optional.empty());
        Port known = new Port("mac", "en2", Optional.of("rdma_en2"), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.of(tb), List.of("FE80:0:0:0:1021:1BAC:FE1:B5E3", "169.254.205.255", "10.0.0.9"), true,
                Optional.of("bridge0"), List.of()).withPrefixLengths(Map.of("fe80::1021:1bac:fe1:b5e3", 64, "169.254.205.255", 16));
        Port none = new Port("mac", "en3", Optional.of("rdma_en3"), 1, PortKind.THUNDERBOLT, Optional.empty(), PortState.DOWN,
                Optional.empty(), List.of(), true, Optional.empty(), List.of());
        Port unknown = new Port("mac", "en4", Optional.of("rdma_en4"), 1, PortKind.THUNDERBOLT, Optional.empty(), PortState.DOWN,
                Optional.empty(), List.of());
        Port switched = new Port("mac", "en5", Optional.of("mlx5_0"), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), List.of(), true, Optional.empty(),
                Optional.of(new SwitchPort(FarEndSource.LLDP, "52:54:00:12:34:56", Optional.of("leaf 0"), "Ethernet12")), Optional.of(3),
                List.of());
        Port ib = new Port("mac", "ib0", Optional.of("mlx5_1"), 1, PortKind.INFINIBAND, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), List.of(), true, Optional.empty(),
                Optional.of(new SwitchPort(FarEndSource.INFINIBAND, "0x0002C90200401234", Optional.empty(), "17")), Optional.empty(),
                Optional.of(Infiniband.of("0x0002c90300336FE0")), List.of());
        Port backToBack = new Port("mac", "ib1", Optional.of("mlx5_2"), 2, PortKind.INFINIBAND, Optional.of(400.0), PortState.ACTIVE,
                Optional.empty(), List.of(), true, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(new Infiniband(Optional.empty(), Optional.of("0x0002C90300336FE0"), Optional.of(1))), List.of());
        NodeRecord record = new NodeRecord("mac", 3, List.of(known, none, unknown, switched, ib, backToBack), Optional.of("2001:DB8:0:0:1:0:0:1"),
                Optional.of(false));
        Snapshot snapshot = new Snapshot(List.of(record));

        String json = SnapshotCodec.write(snapshot);
        Snapshot read = SnapshotCodec.readSnapshot("s.json", json);

        assertThat(read).isEqualTo(snapshot);
        assertThat(json).contains("\"version\" : 7,", "\"management\" : \"2001:db8::1:0:0:1\"", "\"rdmaEnabled\" : false",
                "\"switchPort\" : null", "\"chassis\" : \"0x0002c90200401234\"", "\"name\" : \"leaf 0\"",
                "\"bridge\" : \"bridge0\"", "\"addresses\" : [ ]", "\"addresses\" : null");
        Port en2 = read.records().get(0).port("en2").orElseThrow();
        assertThat(en2.addresses()).containsExactly("10.0.0.9", "169.254.205.255", "fe80::1021:1bac:fe1:b5e3");
        assertThat(en2.ipv4()).containsExactly("10.0.0.9", "169.254.205.255");
        // in address order; an address whose length is not known has none, and a port without any writes no field
        assertThat(json).contains("\"prefixLengths\" : {\n        \"169.254.205.255\" : 16,\n        \"fe80::1021:1bac:fe1:b5e3\" : 64\n      }");
        assertThat(en2.prefixLength("169.254.205.255")).contains(16);
        assertThat(en2.prefixLength("10.0.0.9")).isEmpty();
        assertThat(json.split("prefixLengths", -1)).hasSize(2);
        assertThat(read.records().get(0).port("en3").orElseThrow().addressesKnown()).isTrue();
        assertThat(read.records().get(0).port("en4").orElseThrow().addressesKnown()).isFalse();
        assertThat(read.records().get(0).port("en5").orElseThrow().switchPort()).map(SwitchPort::switchId)
                .contains("lldp:52:54:00:12:34:56");
        assertThat(read.records().get(0).port("en5").orElseThrow().gidIndex()).contains(3);
        assertThat(json).contains("\"gidIndex\" : 3", "\"gidIndex\" : null");
        assertThat(read.records().get(0).port("ib0").orElseThrow().switchPort()).map(SwitchPort::switchName)
                .contains("0x0002c90200401234");
        assertThat(json).contains("\"infiniband\" : null", "\"nodeGuid\" : \"0x0002c90300336fe0\"", "\"peerNodeGuid\" : null",
                "\"peerPort\" : 1");
        assertThat(read.records().get(0).port("ib1").orElseThrow().infiniband().flatMap(Infiniband::peerKey))
                .contains("0x0002c90300336fe0/1");
        assertThat(SnapshotCodec.readRecord("r.json", SnapshotCodec.write(record))).isEqualTo(record);
    }

    @Test
    void aVersionOneSnapshotStillReadsWithTheNewFieldsEmpty() throws IOException {
        String v1 = Files.readString(Path.of("src/test/resources/snapshots/two-macs-crossed-v1.json"), StandardCharsets.UTF_8);

        Snapshot snapshot = SnapshotCodec.readSnapshot("two-macs-crossed-v1.json", v1);

        assertThat(v1).contains("\"version\": 1,");
        assertThat(snapshot.nodes()).containsExactly("studio-a", "studio-b");
        assertThat(snapshot.records()).allSatisfy(r -> {
            assertThat(r.management()).isEmpty();
            assertThat(r.rdmaEnabled()).isEmpty();
            assertThat(r.ports()).hasSize(2).allSatisfy(p -> {
                assertThat(p.addresses()).isEmpty();
                assertThat(p.addressesKnown()).isFalse();
                assertThat(p.bridge()).isEmpty();
                assertThat(p.rdma()).contains("rdma_" + p.netdev());
            });
        });
        // written again, it is version 2 and reads back the same
        assertThat(SnapshotCodec.readSnapshot("again", SnapshotCodec.write(snapshot))).isEqualTo(snapshot);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not an IP|\"addresses\": [\"10.0.0.1\", \"studio-b.local\"]|$.records[0].ports[0].addresses[1]|address \"studio-b.local\" is not an IP address",
        "leading zero|\"addresses\": [\"010.0.0.1\"]|$.records[0].ports[0].addresses[0]|is not an IP address",
        "octet over 255|\"addresses\": [\"10.0.0.256\"]|$.records[0].ports[0].addresses[0]|is not an IP address",
        "zone|\"addresses\": [\"fe80::1%en2\"]|$.records[0].ports[0].addresses[0]|has a zone",
        "bad IPv6|\"addresses\": [\"fe80::1::2\"]|$.records[0].ports[0].addresses[0]|is not an IPv6 address",
        "IPv4-mapped|\"addresses\": [\"::ffff:10.0.0.1\"]|$.records[0].ports[0].addresses[0]|IPv4-mapped",
        "not a string|\"addresses\": [7]|$.records[0].ports[0].addresses[0]|expected a string",
        "not an array|\"addresses\": \"10.0.0.1\"|$.records[0].ports[0].addresses|expected an array",
        "bad bridge|\"bridge\": \"bridge 0\"|$.records[0].ports[0]|bridge name",
    })
    void badAddressesAndBridgesNameTheirPath(String what, String field, String path, String problem) {
        String json = "{\"format\": \"railmap-snapshot\", \"version\": 2, \"records\": [{\"node\": \"a\", \"version\": 1,"
                + " \"ports\": [{\"netdev\": \"en2\", \"kind\": \"thunderbolt\", \"state\": \"active\", " + field + "}]}]}";

        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("cluster.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.problem()).contains(problem);
                });
    }

    @Test
    void moreAddressesThanAPortCarriesIsAnErrorAtTheArray() {
        String seventeen = String.join(", ", Collections.nCopies(17, "\"10.0.0.1\""));
        String sixteen = String.join(", ", java.util.stream.IntStream.range(0, 16).mapToObj(i -> "\"10.0.0." + i + "\"").toList());
        String record = "{\"node\": \"a\", \"version\": 1, \"ports\": [{\"netdev\": \"en2\", \"kind\": \"thunderbolt\","
                + " \"state\": \"active\", \"addresses\": [%s]}]}";

        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", record.formatted(seventeen)))
                .hasMessage("r.json: at $.ports[0].addresses: 17 addresses; a port carries at most 16");
        assertThat(SnapshotCodec.readRecord("r.json", record.formatted(sixteen)).ports().get(0).addresses()).hasSize(16);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "management|\"management\": \"10.0.0.1\"|$.records[0].management",
        "rdmaEnabled|\"rdmaEnabled\": true|$.records[0].rdmaEnabled",
    })
    void versionOneHasNoneOfVersionTwosRecordFields(String what, String field, String path) {
        String json = "{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1, "
                + field + ", \"ports\": []}]}";

        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("old.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.problem()).startsWith("unknown field");
                });
        assertThat(SnapshotCodec.readSnapshot("new.json", json.replace("\"version\": 1, \"records\"", "\"version\": 2, \"records\"")))
                .isNotNull();
    }

    @Test
    void versionOnePortsHaveNoAddresses() {
        String json = "{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\", \"version\": 1,"
                + " \"ports\": [{\"netdev\": \"en2\", \"kind\": \"thunderbolt\", \"state\": \"active\", \"addresses\": []}]}]}";

        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("old.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.path()).isEqualTo("$.records[0].ports[0].addresses"));
    }

    @Test
    void aBadManagementAddressNamesItsPath() {
        assertThatThrownBy(() -> SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"version\": 1, \"management\": \"mgmt.local\", \"ports\": []}"))
                .hasMessage("r.json: at $.management: management address \"mgmt.local\" is not an IP address (IPv4 a.b.c.d without leading"
                        + " zeros, or IPv6)");
    }

    @Test
    void theIncarnationTravelsWithTheRecordInLowerCaseAndMayBeAbsent() {
        UUID incarnation = UUID.fromString("6f1c0b6e-2d4a-4c1b-9a7e-0b1c2d3e4f5a");
        NodeRecord record = new NodeRecord("a", 3, List.of(), Optional.empty(), Optional.empty(), Optional.of(incarnation));

        String json = SnapshotCodec.write(new Snapshot(List.of(record)));

        assertThat(json).contains("\"incarnation\" : \"6f1c0b6e-2d4a-4c1b-9a7e-0b1c2d3e4f5a\"");
        assertThat(SnapshotCodec.readSnapshot("s.json", json).records()).containsExactly(record);
        assertThat(SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"incarnation\": \"6F1C0B6E-2D4A-4C1B-9A7E-0B1C2D3E4F5A\","
                + " \"version\": 3, \"ports\": []}")).isEqualTo(record);
        // a version-2 snapshot written before incarnations existed (the shipped example) reads with none
        assertThat(SnapshotCodec.write(new NodeRecord("a", 3, List.of()))).contains("\"incarnation\" : null");
        assertThat(SnapshotCodec.readRecord("r.json", "{\"node\": \"a\", \"version\": 3, \"ports\": []}").incarnation()).isEmpty();
    }

    @Test
    void theShippedVersionThreeSnapshotReadsWithNoInfinibandFactsAndWritesAsTheNewest() throws IOException {
        String json = Files.readString(Path.of("../examples/snapshots/two-leaves.json"), StandardCharsets.UTF_8);
        assertThat(json).contains("\"version\": 3,").doesNotContain("\"infiniband\"");

        Snapshot v3 = SnapshotCodec.readSnapshot("two-leaves.json", json);

        assertThat(v3.records()).isNotEmpty().allSatisfy(r -> assertThat(r.ports()).allSatisfy(p -> assertThat(p.infiniband()).isEmpty()));
        assertThat(v3.records()).anySatisfy(r -> assertThat(r.ports()).anySatisfy(p -> assertThat(p.switchPort()).isPresent()));
        String newest = SnapshotCodec.write(v3);
        assertThat(newest).contains("\"version\" : 7,", "\"infiniband\" : null").doesNotContain("prefixLengths");
        assertThat(SnapshotCodec.readSnapshot("again.json", newest)).isEqualTo(v3);
    }

    @Test
    void theShippedVersionTwoSnapshotHasNoIncarnationsAndStillReads() throws IOException {
        String json = Files.readString(Path.of("../examples/snapshots/two-macs-crossed.json"), StandardCharsets.UTF_8);

        assertThat(json).doesNotContain("incarnation");
        assertThat(SnapshotCodec.readSnapshot("two-macs-crossed.json", json).records())
                .hasSize(2).allSatisfy(r -> assertThat(r.incarnation()).isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not a UUID|\"incarnation\": \"restart-7\"|$.records[0].incarnation|incarnation \"restart-7\" is not a UUID",
        "short group|\"incarnation\": \"1-2-3-4-5\"|$.records[0].incarnation|is not a UUID",
        "a number|\"incarnation\": 7|$.records[0].incarnation|expected a string",
    })
    void aBadIncarnationNamesItsPath(String what, String field, String path, String problem) {
        String json = "{\"format\": \"railmap-snapshot\", \"version\": 2, \"records\": [{\"node\": \"a\", " + field
                + ", \"version\": 1, \"ports\": []}]}";

        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("s.json", json))
                .isInstanceOfSatisfying(FormatException.class, e -> {
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.problem()).contains(problem);
                });
        assertThatThrownBy(() -> SnapshotCodec.readSnapshot("old.json", json.replace("\"version\": 2, \"records\"", "\"version\": 1, \"records\"")))
                .isInstanceOfSatisfying(FormatException.class, e -> assertThat(e.problem()).startsWith("unknown field"));
    }
}
