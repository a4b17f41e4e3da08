package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CliTest {
    @TempDir
    Path dir;
    private Path snapshot;

    /** Two Macs, two crossed Thunderbolt cables (a:en6–b:en7, a:en7–b:en6), each record listing its ports in its own order. */
    @BeforeEach
    void twoMacsWithCrossedCables() throws IOException {
        Path a = write("a.json", "{\"node\": \"a\", \"version\": 3, \"ports\": ["
                + port("en6", "b", "en7") + "," + port("en7", "b", "en6") + "]}");
        Path b = write("b.json", "{\"node\": \"b\", \"version\": 5, \"ports\": ["
                + port("en7", "a", "en6") + "," + port("en6", "a", "en7") + "]}");
        snapshot = dir.resolve("cluster.json");
        Run run = Run.of("snapshot", b.toString(), a.toString(), "-o", snapshot.toString());
        assertThat(run.code()).as(run.err()).isZero();
    }

    private static String port(String netdev, String farNode, String farPort) {
        return "{\"netdev\": \"" + netdev + "\", \"rdma\": \"rdma_" + netdev + "\", \"kind\": \"thunderbolt\", \"rateGbps\": 80,"
                + " \"state\": \"active\", \"neighbours\": [{\"node\": \"" + farNode + "\", \"port\": \"" + farPort + "\"}]}";
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void matrixWritesRailsThatAreOneCableAtBothEnds() throws IOException {
        Path out = dir.resolve("devices.json");
        Run run = Run.of("matrix", "--snapshot", snapshot.toString(), "--hosts", "a,b", "-o", out.toString());

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(Files.readString(out)).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n");
        try (var leftovers = Files.list(dir)) {
            assertThat(leftovers.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void matrixJsonCarriesRingFlagOrderAndFindings() throws IOException {
        Run run = Run.of("matrix", "--snapshot", snapshot.toString(), "--hosts", "b,a", "--format", "json");
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.get("ranks").toString()).isEqualTo("[\"b\",\"a\"]");
        assertThat(json.get("ring").asBoolean()).isTrue();
        // rank 0 is b now: its ends come first, in the same rail order (a:en6–b:en7 is rail 0)
        assertThat(json.get("devices").get(0).get(1).toString()).isEqualTo("[\"rdma_en7\",\"rdma_en6\"]");
        assertThat(json.get("devices").get(1).get(0).toString()).isEqualTo("[\"rdma_en6\",\"rdma_en7\"]");
    }

    @Test
    void envNeedsACoordinatorAndSetsTheRing() {
        Run missing = Run.of("matrix", "--snapshot", snapshot.toString(), "--format", "env");
        assertThat(missing.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(missing.err()).contains("rank 0 (a) has no IPv4 management address", "--coordinator IPV4:PORT");

        Run run = Run.of("matrix", "--snapshot", snapshot.toString(), "--format", "env", "--coordinator", "10.0.0.1:5000", "--rank", "1");
        assertThat(run.out()).startsWith("RAILMAP_TOPOLOGY=sha256:").contains("\nRAILMAP_RECORDS=a@3.", ",b@5.");
        assertThat(run.out().substring(run.out().indexOf("MLX_"))).isEqualTo("MLX_IBV_DEVICES=/etc/railmap/devices.json\nMLX_RANK=1\nMLX_JACCL_COORDINATOR=10.0.0.1:5000\nMLX_JACCL_RING=1\n"
                + "JACCL_IBV_DEVICES=/etc/railmap/devices.json\nJACCL_RANK=1\nJACCL_COORDINATOR=10.0.0.1:5000\nJACCL_RING=1\n");
        Run old = Run.of("matrix", "--snapshot", snapshot.toString(), "--format", "env", "--coordinator", "10.0.0.1:5000", "--rank", "1",
                "--mlx-version", "0.31.1");
        assertThat(old.code()).as(old.err()).isZero();
        // MLX 0.31.1 reads no JACCL_* names, and cannot run a ring of two wires: the mesh, one name per cell
        assertThat(old.out()).doesNotContain("JACCL_RANK").doesNotContainPattern("(?m)^(MLX_)?JACCL_RING=").contains("MLX_RANK=1\n");
        assertThat(Run.of("matrix", "--snapshot", snapshot.toString(), "--mlx-version", "0.29.0").err())
                .contains("--mlx-version: MLX 0.29.0 has no jaccl");
    }

    @Test
    void addressesComeFromTheRecordsWhenNotGiven() throws IOException {
        Path example = Path.of("..", "examples", "snapshots", "two-macs-crossed.json");
        Run env = Run.of("matrix", "--snapshot", example.toString(), "--format", "env", "--rank", "0");
        assertThat(env.code()).as(env.err()).isZero();
        assertThat(env.out()).contains("MLX_JACCL_COORDINATOR=10.0.0.11:32323\n");
        Run launch = Run.of("matrix", "--snapshot", example.toString(), "--format", "launch");
        assertThat(launch.code()).as(launch.err()).isZero();
        JsonNode hostfile = new ObjectMapper().readTree(launch.out());
        assertThat(hostfile.get("hosts").get(0).get("ips").toString()).isEqualTo("[\"10.0.0.11\"]");
        assertThat(hostfile.get("hosts").get(1).get("ips").toString()).isEqualTo("[\"10.0.0.12\"]");
        Run overridden = Run.of("matrix", "--snapshot", example.toString(), "--format", "launch", "--ip", "studio-a=192.168.7.1");
        assertThat(new ObjectMapper().readTree(overridden.out()).get("hosts").get(0).get("ips").toString()).isEqualTo("[\"192.168.7.1\"]");
    }

    @Test
    void launchFormatNeedsRankZerosAddress() throws IOException {
        Run run = Run.of("matrix", "--snapshot", snapshot.toString(), "--format", "launch", "--ip", "a=192.168.1.10");
        assertThat(run.code()).isZero();
        assertThat(new ObjectMapper().readTree(run.out()).get("backend").asText()).isEqualTo("jaccl-ring");
        assertThat(Run.of("matrix", "--snapshot", snapshot.toString(), "--format", "launch").err()).contains("--ip a=ADDRESS");
    }

    @Test
    void checkAcceptsWhatMatrixWritesAndFlagsASwappedCell() throws IOException {
        Path good = write("good.json", "[[null, [\"rdma_en6\", \"rdma_en7\"]], [[\"rdma_en7\", \"rdma_en6\"], null]]");
        Run clean = Run.of("check", good.toString(), "--snapshot", snapshot.toString(), "--hosts", "a,b");
        assertThat(clean.code()).as(clean.out() + clean.err()).isZero();
        assertThat(clean.out()).contains("0 errors");

        // both sides sorted their interfaces by name on their own: the deadlock
        Path bad = write("bad.json", "[[null, [\"rdma_en6\", \"rdma_en7\"]], [[\"rdma_en6\", \"rdma_en7\"], null]]");
        Run run = Run.of("check", bad.toString(), "--snapshot", snapshot.toString(), "--hosts", "a,b");
        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        // jaccl runs this file as a mesh, which opens wire 0 only: rail 0 hangs it; rail 1 would with MLX_JACCL_RING set
        assertThat(run.out()).contains("error mismatched-rail [ranks 0,1 rail 0]", "warning mismatched-rail [ranks 0,1 rail 1]", "1 error");
        Run ring = Run.of("check", bad.toString(), "--snapshot", snapshot.toString(), "--hosts", "a,b", "--mode", "ring");
        assertThat(ring.out()).contains("error mismatched-rail [ranks 0,1 rail 0]", "error mismatched-rail [ranks 0,1 rail 1]", "2 errors");

        JsonNode json = new ObjectMapper().readTree(Run.of("check", bad.toString(), "--snapshot", snapshot.toString(),
                "--hosts", "a,b", "--json").out());
        assertThat(json.get("errors").asInt()).isEqualTo(1);
        assertThat(json.get("findings").get(0).get("code").asText()).isEqualTo("mismatched-rail");
        // the ports it is about, as its sentence names them: the two named ends first, then the two cables' ends
        assertThat(json.get("findings").get(0).get("ports").toString()).isEqualTo("[\"a:en6\",\"b:en6\",\"b:en7\",\"a:en7\"]");
    }

    @Test
    void noRingIsItsOwnExitCodeAndNamesTheNode() throws IOException {
        Path c = write("c.json", "{\"node\": \"c\", \"version\": 1, \"ports\": []}");
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        Path three = dir.resolve("three.json");
        assertThat(Run.of("snapshot", a.toString(), b.toString(), c.toString(), "-o", three.toString()).code()).isZero();

        Run run = Run.of("matrix", "--snapshot", three.toString(), "--hosts", "a,b,c", "--order", "ring");
        assertThat(run.code()).isEqualTo(ExitCodes.NO_RING);
        assertThat(run.err()).contains("no ring order through a, b, c:", "a, b, c have fewer than two cabled neighbours");
    }

    @Test
    void aMatrixJacclCannotRunExitsTwoButIsStillWritten() throws IOException {
        Path c = write("c.json", "{\"node\": \"c\", \"version\": 1, \"ports\": []}");
        Path three = dir.resolve("three.json");
        Run.of("snapshot", dir.resolve("a.json").toString(), dir.resolve("b.json").toString(), c.toString(), "-o", three.toString());
        Run run = Run.of("matrix", "--snapshot", three.toString(), "--hosts", "a,b,c");
        assertThat(run.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).startsWith("[");
        assertThat(run.err()).contains("error missing-link");
    }

    @Test
    void malformedInputsNameTheFileAndWhereAndExitOne() throws IOException {
        Path broken = write("broken.json", "{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": \"a\"}]}");
        Run run = Run.of("matrix", "--snapshot", broken.toString());
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).isEqualTo("railmap: " + broken + ": at $.records[0]: missing field \"version\"\n");

        Path devices = write("devices.json", "[[null, 7], [null, null]]");
        Run check = Run.of("check", devices.toString(), "--snapshot", snapshot.toString(), "--hosts", "a,b");
        assertThat(check.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(check.err()).contains(devices + ": at $[0][1]: a cell is null");
    }

    @Test
    void badValuesAreRefusedWithTheFlagNamed() {
        for (List<String> args : List.of(
                List.of("--min-rate-gbps", "NaN"), List.of("--min-rate-gbps", "-3"), List.of("--min-rate-gbps", "Infinity"),
                List.of("--max-wires", "0"), List.of("--hosts", "a,,b"), List.of("--hosts", "a,x"), List.of("--ip", "a=10.0.0.300",
                "--format", "launch"))) {
            List<String> all = new java.util.ArrayList<>(List.of("matrix", "--snapshot", snapshot.toString()));
            all.addAll(args);
            Run run = Run.of(all.toArray(String[]::new));
            assertThat(run.code()).as(args.toString()).isEqualTo(ExitCodes.INPUT);
            assertThat(run.err()).as(args.toString()).startsWith("railmap: ").doesNotContain("Exception", "\tat ");
        }
    }

    /** The formats' list and the options each reads come from one registry (Formats.ALL); an option a format does not read is an error. */
    @Test
    void eachFormatTakesOnlyItsOwnOptionsAndHelpListsEveryFormat() {
        Run help = Run.of("matrix", "--help");
        assertThat(help.code()).isZero();
        for (io.railmap.matrix.emit.Format f : io.railmap.matrix.emit.Formats.ALL) {
            assertThat(help.out()).containsPattern("\n  " + f.name() + " +" + java.util.regex.Pattern.quote(f.summary().substring(0, 12)));
        }
        assertThat(help.out()).contains("What to write: jaccl, env, launch, json, dot, ring-launch, ring-hosts",
                "Reads --hosts only.", "--rank.");
        for (List<String> args : List.of(List.of("--format", "json", "--rank", "0"), List.of("--format", "ring-launch", "--order", "ring"),
                List.of("--format", "jaccl", "--ip", "a=10.0.0.1"), List.of("--format", "ring-hosts", "--no-equal-ring-wires"))) {
            List<String> all = new java.util.ArrayList<>(List.of("matrix", "--snapshot", snapshot.toString()));
            all.addAll(args);
            Run run = Run.of(all.toArray(String[]::new));
            assertThat(run.code()).as(args.toString()).isEqualTo(ExitCodes.INPUT);
            assertThat(run.out()).as(args.toString()).isEmpty();
            assertThat(run.err()).as(args.toString()).startsWith("railmap: " + args.get(2).replace("--no-", "--") + " does not apply to format " + args.get(1) + ": only ");
        }
    }

    @Test
    void everyBadMatrixOptionIsExitOneWithOneLineNamingIt() {
        for (List<String> args : List.of(
                List.of("--format", "env", "--coordinator", "x"), List.of("--format", "env", "--coordinator", "10.0.0.1:0"),
                List.of("--format", "launch", "--ip", "a=10.0.0.300"), List.of("--format", "launch", "--ip", "a=10.0.0.1", "--ip", "zz=10.0.0.2"),
                List.of("--format", "env", "--coordinator", "10.0.0.1:5000", "--rank", "2"),
                List.of("--format", "env", "--coordinator", "10.0.0.1:5000", "--rank", "-1"),
                List.of("--format", "env", "--coordinator", "10.0.0.1:5000", "--devices-path", ""),
                List.of("--format", "env", "--coordinator", "10.0.0.1:5000", "--devices-path", "/x\nMLX_RANK=7"),
                List.of("--max-wires", "99999999999"), List.of("--order", "sideways"), List.of("--hosts", "a,b\u001b[2J"))) {
            List<String> all = new java.util.ArrayList<>(List.of("matrix", "--snapshot", snapshot.toString()));
            all.addAll(args);
            Run run = Run.of(all.toArray(String[]::new));
            String flag = args.get(args.size() - 2);
            assertThat(run.code()).as(args.toString()).isEqualTo(ExitCodes.INPUT);
            assertThat(run.out()).as(args.toString()).isEmpty();
            List<String> lines = run.err().lines().toList();
            assertThat(lines.get(0)).as(args.toString()).startsWith("railmap: ").contains(flag).doesNotContain("\u001b", "Exception");
            assertThat(lines.subList(1, lines.size())).as(args.toString()).allMatch(l -> l.startsWith("Try 'railmap matrix --help'"));
        }
        assertThat(Run.of("matrix", "--lab", "../../tmp/x").err()).isEqualTo("railmap: --lab name \"../../tmp/x\" must not contain '/'\n");
    }

    @Test
    void aLabThatMayNotWaitIsRefusedBeforeAnythingIsMade() {
        Run run = Run.of("lab", "up", "--topology", "../examples/two-crossed.json", "--wait-s", "0");
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).isEqualTo("railmap: --wait-s must be at least 1 second (got 0)\n");
    }

    @Test
    void aFailedWriteLeavesNoFile() {
        Path out = dir.resolve("missing-dir/devices.json");
        Run run = Run.of("matrix", "--snapshot", snapshot.toString(), "-o", out.toString());
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).contains("its directory does not exist");
        assertThat(out).doesNotExist();
    }

    @Test
    void twoRecordsOfOneNodeAreRefused() {
        Run run = Run.of("snapshot", dir.resolve("a.json").toString(), dir.resolve("a.json").toString());
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).contains("both hold a record of node a");
    }

    @ParameterizedTest
    @ValueSource(strings = {"matrix", "check", "snapshot", "ports", "nodes", "discover", "lab"})
    void everyCommandHasHelpWithAnExampleAndTheExitCodes(String command) {
        Run run = Run.of(command, "--help");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("Example", "railmap " + command + " ", "Exit codes:", "2   findings with errors");
    }
}
