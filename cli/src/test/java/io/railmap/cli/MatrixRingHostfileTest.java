package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code railmap matrix --format ring-launch|ring-hosts}: the files MLX's TCP ring backend starts from. */
class MatrixRingHostfileTest {
    private static final String RING = "../examples/snapshots/four-studios-ring-ips.json";

    @Test
    void ringLaunchIsAnMlxLaunchHostfileOfEachHostsCableEndsToThePreviousHost() throws Exception {
        Run run = Run.of("matrix", "--snapshot", RING, "--format", "ring-launch");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("backend").asText()).isEqualTo("ring");
        assertThat(root.get("envs").get(0).asText()).startsWith("RAILMAP_TOPOLOGY=sha256:");
        List<String> hosts = new ArrayList<>();
        root.get("hosts").forEach(h -> hosts.add(h.get("ssh").asText() + " " + h.get("ips")));
        // studio-b's cables to studio-a end at 192.168.0.2 and 192.168.1.2 (the example gives cable k 192.168.k.1 and .2)
        assertThat(hosts).containsExactly("studio-a [\"192.168.2.1\",\"192.168.3.1\"]", "studio-b [\"192.168.0.2\",\"192.168.1.2\"]",
                "studio-c [\"192.168.4.2\",\"192.168.5.2\"]", "studio-d [\"192.168.6.2\",\"192.168.7.2\"]");
    }

    @Test
    void ringLaunchReadsMlxVersionAndWritesABareArrayOfHostsForMlxBefore0306() throws Exception {
        // v0.30.5 python/mlx/_distributed_utils/common.py parse_hostfile reads only a bare array of hosts
        Run old = Run.of("matrix", "--snapshot", RING, "--format", "ring-launch", "--mlx-version", "0.30.5");

        assertThat(old.code()).as(old.err()).isZero();
        JsonNode bare = new ObjectMapper().readTree(old.out());
        assertThat(bare.isArray()).isTrue();
        assertThat(bare.get(0).get("ssh").asText()).isEqualTo("studio-a");
        assertThat(bare.get(0).get("ips").toString()).isEqualTo("[\"192.168.2.1\",\"192.168.3.1\"]");
        assertThat(old.err()).contains("setting-caveat", "--backend ring");
        // ring-hosts is MLX_HOSTFILE, which ring.cpp load_nodes reads alike in every release: the option is refused
        Run hosts = Run.of("matrix", "--snapshot", RING, "--format", "ring-hosts", "--mlx-version", "0.30.5");
        assertThat(hosts.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(hosts.err()).startsWith("railmap: --mlx-version does not apply to format ring-hosts: only ").contains("ring-launch");
    }

    @Test
    void ringHostsStartsAtTheFirstHostGivenWithLaunchRingsPorts() throws Exception {
        Run run = Run.of("matrix", "--snapshot", RING, "--format", "ring-hosts", "--hosts", "studio-c,studio-a,studio-b,studio-d");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get(0).get(0).asText()).startsWith("192.168.").endsWith(":32323");
        assertThat(root.get(3).get(1).asText()).endsWith(":32330");
        assertThat(root).hasSize(4);
    }

    @Test
    void noRingOfCablesWithAddressesAndAnUnknownFormatAreOneLineErrors() {
        Run noRing = Run.of("matrix", "--snapshot", RING, "--format", "ring-launch", "--hosts", "studio-a,studio-c");
        assertThat(noRing.code()).isEqualTo(ExitCodes.NO_RING);
        assertThat(noRing.out()).isEmpty();
        assertThat(noRing.err()).contains("no TCP ring", "no cable between studio-a, studio-c").doesNotContain("Exception");

        Run bad = Run.of("matrix", "--snapshot", RING, "--format", "ring");
        assertThat(bad.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(bad.err()).contains("'ring' is not a format: give one of jaccl, env, launch, json, dot, ring-launch, ring-hosts");
    }
}
