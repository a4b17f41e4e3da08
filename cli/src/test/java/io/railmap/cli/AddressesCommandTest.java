package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code railmap addresses} on the example snapshots: the plan, each node's commands, and its refusals. */
class AddressesCommandTest {
    private static final String CROSSED = "../examples/snapshots/two-macs-crossed.json";
    private static final String RING = "../examples/snapshots/four-studios-ring.json";

    @Test
    void everyCableGetsASlash30AndEachMacItsIfconfigCommands() {
        Run run = Run.of("addresses", "--snapshot", CROSSED);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("address plan: 2 cables, a /30 each from 169.254.0.0/16\n");
        assertThat(run.out()).contains("studio-a:en6\u2013studio-b:en7  169.254.1.0/30  studio-a:en6  169.254.1.1  studio-b:en7  169.254.1.2",
                "node studio-a (macOS, as root):\n  ifconfig en6 inet 169.254.1.1 netmask 255.255.255.252\n");
    }

    @Test
    void theScriptOfOneNodeIsWhatItRunsAndLinuxGetsIpCommands() {
        Run run = Run.of("addresses", "--snapshot", RING, "--hosts", "studio-a,studio-b", "--node", "studio-b", "--script", "--os", "linux");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out().lines().filter(l -> !l.startsWith("#")).toList()).containsExactly("set -e",
                "ip -4 addr flush dev en4", "ip addr add 169.254.1.2/30 dev en4",
                "ip -4 addr flush dev en5", "ip addr add 169.254.1.6/30 dev en5");
    }

    @Test
    void theJsonCarriesThePlanAndTheCommands() throws Exception {
        Run run = Run.of("addresses", "--snapshot", RING, "--pool", "10.99.0.0/16", "--json");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("pool").asText()).isEqualTo("10.99.0.0/16");
        assertThat(root.get("cables")).hasSize(8);
        assertThat(root.get("cables").get(0).get("subnet").asText()).isEqualTo("10.99.0.0/30");
        assertThat(root.get("cables").get(0).get("ends").get(1).get("address").asText()).isEqualTo("10.99.0.2");
        assertThat(root.get("nodes").get("studio-c").get("os").asText()).isEqualTo("macos");
        assertThat(root.get("nodes").get("studio-c").get("commands")).hasSize(4);
    }

    @Test
    void badInputIsAUsageErrorThatSaysWhatToGive() {
        Run hostBits = Run.of("addresses", "--snapshot", RING, "--pool", "10.99.0.1/16");
        assertThat(hostBits.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(hostBits.err()).contains("--pool \"10.99.0.1/16\" has host bits set: the subnet is 10.99.0.0/16");

        Run small = Run.of("addresses", "--snapshot", RING, "--pool", "10.99.0.0/29");
        assertThat(small.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(small.err()).contains("has no room for 0 segments (/24 each) and 8 cables (/30 each): give a larger pool");

        Run scriptWithoutNode = Run.of("addresses", "--snapshot", RING, "--script");
        assertThat(scriptWithoutNode.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(scriptWithoutNode.err()).contains("--script writes one node's commands: name it with --node NODE");

        Run os = Run.of("addresses", "--snapshot", RING, "--os", "windows");
        assertThat(os.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(os.err()).contains("unknown OS \"windows\" (expected one of linux, macos)");

        Run stranger = Run.of("addresses", "--snapshot", RING, "--hosts", "studio-a,studio-b", "--node", "studio-c");
        assertThat(stranger.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(stranger.err()).contains("--node studio-c is not among the hosts (studio-a, studio-b)");
    }
}
