package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code railmap check} on mlx.launch hostfiles: the file MLX 0.32.1's {@code mlx.distributed_config}
 * writes for four Mac Studios in a ring with two cables per edge
 * ({@code examples/hostfiles/four-studios-ring.json}, made by {@code configure_jaccl_ring} itself),
 * against the snapshot of those cables ({@code examples/snapshots/four-studios-ring.json}), and
 * variants of it a user could have.
 */
class CheckHostfileTest {
    private static final Path HOSTFILE = Path.of("../examples/hostfiles/four-studios-ring.json").toAbsolutePath();
    private static final Path SNAPSHOT = Path.of("../examples/snapshots/four-studios-ring.json").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static Run check(Path file, String... more) {
        String[] args = new String[3 + more.length];
        args[0] = "check";
        args[1] = file.toString();
        args[2] = "--snapshot=" + SNAPSHOT;
        System.arraycopy(more, 0, args, 3, more.length);
        return Run.of(args);
    }

    /** The shipped hostfile, changed, written as mlx.distributed_config writes (indent 4). */
    private Path variant(String name, Consumer<ObjectNode> change) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(HOSTFILE.toFile());
        change.accept(root);
        return Files.writeString(dir.resolve(name), root.toPrettyString());
    }

    private static ArrayNode row(ObjectNode root, int host) {
        return (ArrayNode) root.get("hosts").get(host).get("rdma");
    }

    @Test
    void theHostfileMlxDistributedConfigWritesForARingOfFourStudiosPasses() {
        Run run = check(HOSTFILE);

        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).isEqualTo(HOSTFILE + ": 0 errors, 0 warnings, 0 notes (mlx.launch hostfile, hosts studio-a.local, "
                + "studio-b.local, studio-c.local, studio-d.local as ranks studio-a, studio-b, studio-c, studio-d; checked as ring: "
                + "backend jaccl-ring; MLX 0.32.1)\n");
    }

    @Test
    void swappingTheTwoRailsOfOneHostIsAMismatchedRail() throws IOException {
        // studio-b lists its two cables to each neighbour in the other order (as if it had sorted its own ports)
        Path swapped = variant("swapped.json", root -> {
            for (JsonNode cell : row(root, 1)) {
                if (cell.isArray()) {
                    ArrayNode wires = (ArrayNode) cell;
                    JsonNode first = wires.remove(0);
                    wires.add(first);
                }
            }
        });
        Run run = check(swapped);

        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error mismatched-rail [ranks 0,1 rail 0]", "error mismatched-rail [ranks 0,1 rail 1]",
                "error mismatched-rail [ranks 1,2 rail 0]", "error mismatched-rail [ranks 1,2 rail 1]",
                "studio-a:en2 and studio-b:en5", swapped + ": 4 errors");
    }

    @Test
    void aHostOrderThatIsNoCycleOfTheCablesFailsAsARing() throws IOException {
        // the same hosts and cables, but the hosts in the order a, c, b, d: a and c share no cable
        int[] order = {0, 2, 1, 3};
        Path reordered = variant("reordered.json", root -> {
            ArrayNode hosts = (ArrayNode) root.get("hosts");
            List<JsonNode> old = List.of(hosts.get(0).deepCopy(), hosts.get(1).deepCopy(), hosts.get(2).deepCopy(), hosts.get(3).deepCopy());
            for (int i = 0; i < 4; i++) {
                ObjectNode host = (ObjectNode) old.get(order[i]).deepCopy();
                ArrayNode rdma = host.putArray("rdma");
                for (int j = 0; j < 4; j++) {
                    rdma.add(old.get(order[i]).get("rdma").get(order[j]));
                }
                hosts.set(i, host);
            }
        });
        Run run = check(reordered);

        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains("error ring-not-a-cycle [ranks 0,1] rank 0 (studio-a) and rank 1 (studio-c) are neighbours in the "
                + "ring but share no wire and no cable", "error ring-not-a-cycle [ranks 2,3]", "ranks studio-a, studio-c, studio-b, studio-d");
        assertThat(run.out()).doesNotContain("mismatched-rail");
    }

    @Test
    void backendJacclIsJacclsOwnChoiceUnlessEnvsSetARingVariable() throws IOException {
        Path jaccl = variant("jaccl.json", root -> root.put("backend", "jaccl"));
        Run auto = check(jaccl);
        assertThat(auto.code()).isZero();
        assertThat(auto.out()).contains("info missing-link [ranks 0,2] not usable as a mesh (jaccl uses the ring)",
                "checked as auto: backend jaccl with no ring variable: jaccl's own choice; MLX 0.32.1)");

        Path ring = variant("ring.json", root -> root.put("backend", "jaccl").putArray("envs").add("JACCL_RING=0"));
        assertThat(check(ring).out()).contains("0 notes", "checked as ring: backend jaccl with JACCL_RING in envs");
    }

    @Test
    void aBareListOfHostsNeedsTheModeAskedForAndTheOutputSaysSo() throws IOException {
        Path bare = Files.writeString(dir.resolve("bare.json"), JSON.readTree(HOSTFILE.toFile()).get("hosts").toPrettyString());
        Run refused = check(bare);
        assertThat(refused.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(refused.err()).startsWith("railmap: " + bare + ": at $: a bare array of hosts names no backend, so mlx.launch would not "
                + "run jaccl or the ring (it would run ring, or nccl where CUDA is available)").contains("or give --mode to check");

        Run run = check(bare, "--mode", "ring");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).endsWith("checked as ring: --mode, over the file (a bare array of hosts names no backend: not jaccl); MLX 0.32.1)\n");
        Run mesh = check(HOSTFILE, "--mode", "mesh");
        assertThat(mesh.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(mesh.out()).contains("error missing-link", "checked as mesh: --mode, over the file (backend jaccl-ring: ring); MLX 0.32.1)");
    }

    @Test
    void anUnknownHostIsExitOneNamingItAndTheKnownNodes() throws IOException {
        Path alias = variant("alias.json", root -> ((ObjectNode) root.get("hosts").get(2)).put("ssh", "mac3"));
        Run run = check(alias);
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("railmap: " + alias + ": at $.hosts[2].ssh: \"mac3\" (rank 2) is no node railmap knows "
                + "(known: studio-a, studio-b, studio-c, studio-d)").contains("give --hosts with the node of each host").endsWith("\n")
                .hasLineCount(1);

        // --hosts names the node of a host the file names otherwise, and must agree with the rest
        assertThat(check(alias, "--hosts", "studio-a,studio-b,studio-c,studio-d").code()).isZero();
        Run disagree = check(alias, "--hosts", "studio-b,studio-a,studio-c,studio-d");
        assertThat(disagree.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(disagree.err()).startsWith("railmap: --hosts does not agree with " + alias + ": host 0 (ssh \"studio-a.local\") is node "
                + "studio-a, but --hosts names studio-b for rank 0");
    }

    @Test
    void whatMlxLaunchRefusesIsExitOneWithWhatItWouldSay() throws IOException {
        Path noIps = variant("no-ips.json", root -> ((ObjectNode) root.get("hosts").get(0)).putArray("ips"));
        Run run = check(noIps);
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).startsWith("railmap: " + noIps + ": at $.hosts[0].ips: rank 0 (ssh \"studio-a.local\") has no address, and "
                + "mlx.launch refuses the file (\"Rank 0 should have an IP reachable from all other ranks\")");

        Path shortRow = variant("short.json", root -> row(root, 3).remove(3));
        Run refused = check(shortRow);
        assertThat(refused.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(refused.err()).startsWith("railmap: " + shortRow + ": at $.hosts[3].rdma: rank 3 (ssh \"studio-d.local\") has 3 cells but "
                + "the hostfile has 4 hosts, and mlx.launch refuses the file (\"Malformed hostfile for jaccl backend\")");
    }

    @Test
    void jsonNamesTheFileItsBackendAndHosts() throws IOException {
        JsonNode json = JSON.readTree(check(HOSTFILE, "--json").out());
        assertThat(json.get("ranks").toString()).isEqualTo("[\"studio-a\",\"studio-b\",\"studio-c\",\"studio-d\"]");
        assertThat(json.get("mode").asText()).isEqualTo("ring");
        assertThat(json.get("errors").asInt()).isZero();
        ObjectNode hostfile = JsonNodeFactory.instance.objectNode();
        hostfile.put("file", HOSTFILE.toString()).put("backend", "jaccl-ring");
        hostfile.putArray("hosts").add("studio-a.local").add("studio-b.local").add("studio-c.local").add("studio-d.local");
        hostfile.put("modeFrom", "backend");
        assertThat(json.get("hostfile")).isEqualTo(hostfile);
        assertThat(json.get("findings")).isEmpty();
    }

    @Test
    void aDevicesFileStillNeedsItsHostsAndHasNoHostfileInItsJson() throws IOException {
        Path devices = Files.writeString(dir.resolve("devices.json"), "[[null, \"rdma_en2\"], [\"rdma_en4\", null]]");
        Run run = check(devices);
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).startsWith("railmap: --hosts is required with a jaccl devices file");

        JsonNode json = JSON.readTree(check(devices, "--hosts", "studio-a,studio-b", "--json").out());
        assertThat(json.get("errors").asInt()).isZero();
        assertThat(json.has("hostfile")).isFalse();
    }
}
