package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.Lab;
import io.railmap.lab.LabTopology;
import io.railmap.lab.MlxLaunch;
import io.railmap.lab.MlxRuntime;
import io.railmap.lab.Netns;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * railmap's ring hostfile drives MLX's own runtime over the lab's cables: {@code examples/four-ring-double.json}
 * (four nodes in a ring, two cables per edge), one real railmapd and one sshd per node, {@code railmap matrix
 * --format ring-launch}, then the real {@code mlx.launch} (the MLX {@code bin/mlx-venv} pins, its TCP ring backend)
 * starting {@code examples/mlx/all_sum.py} on every node over ssh. The veths' byte counters say which cable
 * carried what. Then what {@code railmap check} predicts, run for real: a cable to the wrong neighbour fails in
 * bounded time; two wires whose cables share a subnet travel one cable, and while that job runs the daemons name it
 * ({@code railmap jobs}: each rank publishes its entry of the hostfile mlx.launch gave it) and drop it when it ends.
 *
 * <p>jaccl is not run: it is built only for macOS 26.2 and newer and needs RDMA devices, which no machine
 * here has. What this proves is MLX's ring backend over IP, which Mac clusters run over Thunderbolt when RDMA
 * is off, and the address rule both share.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith({LabEndToEndTest.LabAvailable.class, MlxAvailable.class})
class MlxLabEndToEndTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTS = "a,b,c,d";
    /** How long one all_sum job may take, start to end, ssh and all (it takes about 5 s on two cores). */
    private static final Duration JOB = Duration.ofSeconds(120);
    /**
     * How long the ranks of a job watched while it runs stay up after their all_sum ({@code all_sum.py --hold-s}): the
     * daemons scan for ranks every 2 s, and the budget to name a job is 5 s.
     */
    private static final Duration HOLD = Duration.ofSeconds(10);
    /** MLX's ring backend tries a connection five times, waiting 1, 2, 4, 8 and 16 s ({@code TCPSocket::connect}): 31 s, then fails. */
    private static final Duration FAILED_JOB = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    private static Lab lab;
    private static LabTopology topology;
    private static Path python;

    @BeforeAll
    static void labUp() throws Exception {
        python = MlxRuntime.python();
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        Run.labUp(ROOT, dir, "rmmlx", "four-ring-double.json", "--ssh", "on");
        Path file = ROOT.resolve("examples/four-ring-double.json");
        topology = LabTopology.read(file.toString(), Files.readString(file));
        lab = LabSetup.lab();
    }

    @AfterAll
    static void labDown() {
        if (lab != null) {
            Run down = Run.of("lab", "down");
            assertThat(down.code()).as(down.err()).isZero();
        }
    }

    /** Every cable of the topology → its two ends' byte counters now. */
    private static Map<Cable, List<Netns.LinkBytes>> cableBytes() {
        Map<String, Map<String, Netns.LinkBytes>> byNode = new LinkedHashMap<>();
        for (String node : topology.nodes()) {
            byNode.put(node, Netns.linkBytes(lab.names().nodeNamespace(node)));
        }
        Map<Cable, List<Netns.LinkBytes>> out = new LinkedHashMap<>();
        for (Cable c : topology.cables()) {
            out.put(c, List.of(byNode.get(c.a().node()).get(c.a().netdev()), byNode.get(c.b().node()).get(c.b().netdev())));
        }
        return out;
    }

    /** The bytes each cable carried between two readings: what its first end sent and received. */
    private static Map<Cable, Long> carried(Map<Cable, List<Netns.LinkBytes>> before, Map<Cable, List<Netns.LinkBytes>> after) {
        Map<Cable, Long> out = new LinkedHashMap<>();
        before.forEach((c, ends) -> out.put(c, after.get(c).get(0).since(ends.get(0)).total()));
        return out;
    }

    private static long managementBytes() {
        long sum = 0;
        for (String node : topology.nodes()) {
            sum += Netns.linkBytes(lab.names().nodeNamespace(node)).get("mgmt0").total();
        }
        return sum;
    }

    /** {@code railmap matrix --lab a --format ring-launch -o FILE}, which must write without an error. */
    private static Path ringLaunch(String name) {
        Path hostfile = dir.resolve(name);
        Run run = Run.of("matrix", "--lab", "a", "--hosts", HOSTS, "--format", "ring-launch", "-o", hostfile.toString());
        assertThat(run.code()).as(run.err()).isZero();
        return hostfile;
    }

    private static MlxLaunch.Result allSum(Path hostfile, Duration bound) {
        return MlxLaunch.run(lab, python, hostfile, List.of(ROOT.resolve("examples/mlx/all_sum.py").toString(), "--mib", "64",
                "--iterations", "2"), bound);
    }

    /** Every rank ran the all_sum and found the exact result. */
    private static void assertExactOnEveryRank(MlxLaunch.Result run, int ranks) {
        assertThat(run.timedOut()).as(run.output()).isFalse();
        assertThat(run.ranks()).as(run.output()).hasSize(ranks);
        assertThat(run.ranks()).as(run.output()).allMatch(r -> r.get("exact").asBoolean());
        assertThat(run.ranks()).extracting(r -> r.get("rank").asInt()).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    private static List<List<String>> ips(Path hostfile) throws Exception {
        List<List<String>> out = new ArrayList<>();
        for (JsonNode host : JSON.readTree(hostfile.toFile()).get("hosts")) {
            List<String> mine = new ArrayList<>();
            host.get("ips").forEach(ip -> mine.add(ip.asText()));
            out.add(mine);
        }
        return out;
    }

    @Test
    @Order(1)
    void theRingHostfileDrivesMlxsRingOverEveryCableAndNotTheManagementNetwork() throws Exception {
        Path hostfile = ringLaunch("ring.json");
        assertThat(ips(hostfile)).allMatch(host -> host.size() == 2);
        Run check = Run.of("check", hostfile.toString(), "--lab", "b");
        assertThat(check.code()).as(check.out() + check.err()).isZero();
        assertThat(check.out()).contains("0 errors, 0 warnings", "checked as mlx-ring: backend ring");
        Map<Cable, List<Netns.LinkBytes>> before = cableBytes();
        long mgmtBefore = managementBytes();

        MlxLaunch.Result run = allSum(hostfile, JOB);

        assertExactOnEveryRank(run, 4);
        Map<Cable, Long> carried = carried(before, cableBytes());
        long total = carried.values().stream().mapToLong(Long::longValue).sum();
        double mean = (double) total / carried.size();
        System.err.printf("mlx ring over the lab: %d cables carried %s bytes (mean %.0f), the management network %d, in %d ms%n",
                carried.size(), carried.values(), mean, managementBytes() - mgmtBefore, run.took().toMillis());
        // 2 iterations + a warm-up of 64 MiB over 8 wires: tens of MB per cable; each cable carries its share
        assertThat(carried).allSatisfy((cable, bytes) -> assertThat(bytes).as("bytes over %s", cable).isGreaterThanOrEqualTo((long) (mean / 4)));
        assertThat(managementBytes() - mgmtBefore).as("bytes over the management network").isLessThan(total / 100);
    }

    @Test
    @Order(2)
    void aPulledCableRewritesTheHostfileAndTheRelaunchedJobRunsOnWhatIsLeft() throws Exception {
        Path hostfile = dir.resolve("watched.json");
        Path err = dir.resolve("watch.err");
        Process watch = new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of("-Drailmap.lab.dir=" + lab.dir(),
                "-Drailmap.lab.prefix=rmmlx"), "matrix", "--lab", "a", "--hosts", HOSTS, "--format", "ring-launch", "--watch", "-o",
                hostfile.toString())).redirectErrorStream(true).redirectOutput(err.toFile()).start();
        try {
            await("the watch writes the hostfile").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Files.exists(hostfile) && ips(hostfile).stream().allMatch(h -> h.size() == 2));
            Run pull = Run.of("lab", "cable", "down", "a:en2");
            assertThat(pull.code()).as(pull.err()).isZero();
            await("the watch rewrites the hostfile without the pulled cable").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> ips(hostfile).stream().allMatch(h -> h.size() == 1));
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }
        Cable pulled = topology.cableAt(PortRef.parse("a:en2")).orElseThrow();
        Map<Cable, List<Netns.LinkBytes>> before = cableBytes();

        MlxLaunch.Result run = allSum(hostfile, JOB);

        assertExactOnEveryRank(run, 4);
        Map<Cable, Long> carried = carried(before, cableBytes());
        long busiest = carried.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(carried.get(pulled)).as("bytes over the pulled cable %s", pulled).isLessThan(busiest / 100);
        Run plug = Run.of("lab", "cable", "up", "a:en2");
        assertThat(plug.code()).as(plug.err()).isZero();
        await("the plugged cable is a rail again").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> ips(ringLaunch("replugged.json")).stream().allMatch(h -> h.size() == 2));
    }

    @Test
    @Order(3)
    void aCableToTheWrongNeighbourIsFoundByCheckAndFailsTheRealJobInBoundedTime() throws Exception {
        Path good = ringLaunch("good.json");
        JsonNode root = JSON.readTree(good.toFile());
        // rank 1 (b) lists, as its second address, its end of a cable to c: a connects to it over no cable of its own
        PortRef stray = PortRef.parse("b:en2");
        String wrongAddress = topology.addresses().links().stream().filter(l -> l.link().ends().contains(stray)).findFirst().orElseThrow()
                .address(stray);
        ((com.fasterxml.jackson.databind.node.ArrayNode) root.get("hosts").get(1).get("ips")).set(1, wrongAddress);
        Path wrong = dir.resolve("wrong-neighbour.json");
        Files.writeString(wrong, root.toPrettyString());

        Run check = Run.of("check", wrong.toString(), "--lab", "a");
        assertThat(check.code()).as(check.out() + check.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(check.out()).contains("error not-a-cable [ranks 0,1 rail 1] $.hosts[1].ips[1] \"" + wrongAddress + "\" is b:en2's,"
                + " which is cabled to c:en4, not to a");

        MlxLaunch.Result run = allSum(wrong, FAILED_JOB);

        System.err.printf("mlx ring with a cable to the wrong neighbour: ended in %d ms, exit %d%n", run.took().toMillis(), run.exit());
        assertThat(run.timedOut()).as("ended by itself within %s: %s", FAILED_JOB, run.output()).isFalse();
        assertThat(run.ranks()).as(run.output()).noneMatch(r -> r.get("exact").asBoolean());
        assertThat(run.output()).contains("[ring] Couldn't connect");
    }

    @Test
    @Order(4)
    void twoWiresWhoseCablesShareASubnetAreFoundByCheckFlaggedWhileTheJobRunsAndTravelOneCableForReal() throws Exception {
        // a and b number their two cables as every Mac does: one 169.254.0.0/16 on every port
        // in this order: each node's first /16 route, the one its kernel takes, is then the cable a:en2–b:en4 at both ends
        readdress("a", "en2", "169.254.200.1", "en3", "169.254.200.3");
        readdress("b", "en4", "169.254.200.2", "en5", "169.254.200.4");
        Path hostfile = dir.resolve("shared.json");
        await("the records carry the new addresses and the ring file says shared-subnet").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    Run run = Run.of("matrix", "--lab", "a", "--hosts", HOSTS, "--format", "ring-launch", "-o", hostfile.toString());
                    return run.code() == ExitCodes.FINDINGS && run.err().contains("shared-subnet") && Files.readString(hostfile)
                            .contains("169.254.200.");
                });
        Run check = Run.of("check", hostfile.toString(), "--lab", "b");
        assertThat(check.code()).as(check.out() + check.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(check.out()).contains("error shared-subnet [ranks 0,1 rail 0] $.hosts[1].ips[0] \"169.254.200.2\": a connection from a"
                + " to 169.254.200.2 (b:en4, on cable a:en2\u2013b:en4) may leave a by any of a:en2, a:en3, which all hold 169.254.0.0/16");
        Cable one = topology.cableAt(PortRef.parse("a:en2")).orElseThrow();
        Cable two = topology.cableAt(PortRef.parse("a:en3")).orElseThrow();
        Map<Cable, List<Netns.LinkBytes>> before = cableBytes();

        // the job, while it runs, as the daemons see it: each rank publishes its own entry of the temporary file MLX_HOSTFILE
        // names (mlx.launch's launch_ring), and railmap jobs puts the file together again and checks it as check does
        long started = System.nanoTime();
        CompletableFuture<MlxLaunch.Result> job = CompletableFuture.supplyAsync(() -> MlxLaunch.run(lab, python, hostfile,
                List.of(ROOT.resolve("examples/mlx/all_sum.py").toString(), "--mib", "64", "--iterations", "2", "--hold-s",
                        String.valueOf(HOLD.toSeconds())), JOB));
        List<String> seen = new ArrayList<>();
        await("railmap jobs --lab a names the running ring job with its shared subnet").atMost(JOB).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    Run jobs = Run.of("jobs", "--lab", "a");
                    seen.clear();
                    seen.addAll(jobs.out().lines().toList());
                    return job.isDone() || jobs.code() == ExitCodes.FINDINGS && jobs.out().contains("error shared-subnet");
                });
        long seenMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
        assertThat(job.isDone()).as("the job ended before railmap jobs named it: %s", seen).isFalse();
        System.err.printf("mlx ring job with two wires on one subnet: railmap jobs --lab a named it %d ms after mlx.launch started:%n%s%n",
                seenMs, String.join("\n", seen));
        assertThat(seen.get(1)).matches("mlx-ring [0-9a-f]{16} +0-3 +a,b,c,d +error");
        String id = seen.get(1).substring(0, "mlx-ring ".length() + 16);
        assertThat(seen).anySatisfy(line -> assertThat(line).startsWith("error shared-subnet [ranks 0,1 rail 0] job " + id + ", rank 0 (a, pid ")
                .contains(") and rank 1 (b, pid ", "): MLX_HOSTFILE[1][0] \"169.254.200.2\": a connection from a to 169.254.200.2 (b:en4, on"
                        + " cable a:en2\u2013b:en4) may leave a by any of a:en2, a:en3, which all hold 169.254.0.0/16", "cable a:en3\u2013b:en5"));

        MlxLaunch.Result run = job.get(JOB.toSeconds(), TimeUnit.SECONDS);

        assertExactOnEveryRank(run, 4);
        await("the ended job leaves").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> Run.of("jobs", "--lab", "a").out().equals("no running job: no record publishes a rank\n"));
        Map<Cable, Long> carried = carried(before, cableBytes());
        long more = Math.max(carried.get(one), carried.get(two));
        long less = Math.min(carried.get(one), carried.get(two));
        System.err.printf("mlx ring, a–b cables sharing 169.254.0.0/16: %s carried %d bytes, %s %d%n", one, carried.get(one), two,
                carried.get(two));
        assertThat(less).as("the a-b cable that carries (almost) nothing: both wires travel the other").isLessThan(more / 20);
    }

    /**
     * Gives ports of a node, in the order given ({@code netdev, address, netdev, address, ...}), one address in
     * 169.254.0.0/16 each instead of their own /30, as a Mac numbers its Thunderbolt ports.
     */
    private static void readdress(String node, String... netdevAndAddress) {
        for (int i = 0; i < netdevAndAddress.length; i += 2) {
            String netdev = netdevAndAddress[i];
            Run run = Run.of("lab", "exec", node, "--", "sh", "-c", "ip -4 addr flush dev " + netdev + " && ip addr add "
                    + netdevAndAddress[i + 1] + "/16 dev " + netdev);
            assertThat(run.code()).as(run.err()).isZero();
        }
    }
}
