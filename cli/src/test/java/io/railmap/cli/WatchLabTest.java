package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.LabNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 in a lab of real daemons ({@code two-crossed.json}: a and b joined by a:en6–b:en7 and
 * a:en7–b:en6), each scenario with {@code railmap matrix --lab a --watch -o FILE --on-change CMD} as a
 * process of its own, a poller reading FILE every 10 ms and CMD copying FILE as it runs: link flaps on
 * both cables, a crashed node, a CMD that sleeps, and every event stream slot asked for by idle
 * clients. The good texts are the three matrices jaccl runs (both cables, or either one); nothing
 * else may ever be read from FILE or handed to CMD. One lab (prefix {@value #PREFIX}, a directory of
 * its own), taken down at the end; skipped, with the reason, where a lab cannot run.
 */
@ExtendWith(LabEndToEndTest.LabAvailable.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WatchLabTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String PREFIX = "rmfol";
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final String BOTH = "[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n";
    private static final String EN6 = "[\n  [null, \"rdma_en6\"],\n  [\"rdma_en7\", null]\n]\n";
    private static final String EN7 = "[\n  [null, \"rdma_en7\"],\n  [\"rdma_en6\", null]\n]\n";
    private static final Set<String> GOOD = Set.of(BOTH, EN6, EN7);

    @TempDir
    static Path dir;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void labUp() throws Exception {
        Run.labUp(ROOT, dir, PREFIX, "two-crossed.json");
    }

    @AfterAll
    static void labDown() {
        Run down = Run.of("lab", "down");
        assertThat(down.code()).as(down.err()).isZero();
    }

    /** Ends what a test started, by pid (SIGINT, then SIGKILL). */
    @org.junit.jupiter.api.AfterEach
    void endStarted() throws Exception {
        for (Process p : started) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        started.clear();
    }

    /** {@code railmap ARGS} in a JVM of its own with the lab's settings, standard error to {@code err}. */
    private Process railmap(Path err, String... args) throws Exception {
        Process p = new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of("-Drailmap.lab.dir=" + dir.resolve("lab"),
                "-Drailmap.lab.prefix=" + PREFIX), args)).redirectErrorStream(false).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return p;
    }

    /** Reads a file every 10 ms, keeping each distinct text, until stopped. */
    private static final class Poller implements AutoCloseable {
        final Set<String> seen = Collections.synchronizedSet(new LinkedHashSet<>());
        final AtomicLong reads = new AtomicLong();
        private final Thread thread;
        private volatile boolean stop;

        Poller(Path file) {
            thread = new Thread(() -> {
                while (!stop) {
                    try {
                        if (Files.exists(file)) {
                            seen.add(Files.readString(file));
                            reads.incrementAndGet();
                        }
                        Thread.sleep(10);
                    } catch (java.io.IOException e) {
                        // renamed over between exists and read: the next read sees it
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "poller");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join(5_000);
        }
    }

    /** The texts CMD found in the file, one per run ({@code cat FILE >> runs; echo @@ >> runs}). */
    private static List<String> runs(Path runs) throws Exception {
        if (!Files.exists(runs)) {
            return List.of();
        }
        String all = Files.readString(runs);
        List<String> out = new ArrayList<>();
        for (String part : all.split("@@\n", -1)) {
            if (!part.isEmpty()) {
                out.add(part);
            }
        }
        return out;
    }

    private static String cmd(Path file, Path runs, String more) {
        return "cat " + file + " >> " + runs + "; echo @@ >> " + runs + (more.isEmpty() ? "" : "; " + more);
    }

    /** {@code ip -n NS link set dev PORT up|down} in node's namespace: what the flaps ran. */
    private static void link(String node, String port, boolean up) throws Exception {
        Process p = new ProcessBuilder("ip", "-n", new LabNames(PREFIX).nodeNamespace(node), "link", "set", "dev", port, up ? "up" : "down")
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }

    /** @return the digest a's daemon says every member agrees on, or empty while they do not agree */
    private static String agreed() {
        try (DaemonClient client = new DaemonClient(LabSetup.daemonUrl("a"))) {
            JsonNode a = new ObjectMapper().readTree(client.get("/v1/agreement"));
            return a.path("agreed").asBoolean() ? a.path("digest").asText() : "";
        } catch (Exception e) {
            return "";
        }
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /**
     * The flap: both cables' ports on a go down and up at random, 0.1 to 0.4 s apart, for 20 s.
     * Texts with errors (no wire) are held back: the poller never reads one and CMD never runs for one;
     * once the cables stay up the file is both cables again.
     */
    @Test
    @Order(1)
    void flapsNeverWriteATextJacclCannotRun() throws Exception {
        Path file = dir.resolve("flap.json");
        Path runs = dir.resolve("flap.runs");
        Path err = dir.resolve("flap.err");
        railmap(err, "matrix", "--lab", "a", "--hosts", "a,b", "--watch", "-o", file.toString(), "--on-change", cmd(file, runs, ""));
        await("the first write").atMost(BOUND).until(() -> text(file).equals(BOTH));
        Random random = new Random(25);
        boolean[] up = {true, true};
        try (Poller poller = new Poller(file)) {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int flaps = 0;
            while (System.nanoTime() < end) {
                int k = random.nextInt(2);
                up[k] = !up[k];
                link("a", k == 0 ? "en6" : "en7", up[k]);
                flaps++;
                Thread.sleep(100 + random.nextInt(301));
            }
            link("a", "en6", true);
            link("a", "en7", true);
            await("both cables back in the file").atMost(BOUND).until(() -> text(file).equals(BOTH));
            Thread.sleep(1_000);
            poller.close();
            System.err.println("flap: " + flaps + " flaps, " + poller.reads.get() + " reads, texts seen " + poller.seen.size()
                    + ", runs " + runs(runs).size());
            assertThat(poller.seen).as("every text read from the file").isSubsetOf(GOOD);
            assertThat(runs(runs)).as("every text CMD ran for").isNotEmpty().allMatch(GOOD::contains);
        }
        String said = Files.readString(err);
        assertThat(said).as("texts with errors came, and were held back").contains("railmap: held back " + file + ": error")
                .doesNotContain("Exception", "\tat ");
    }

    /**
     * The crash: b is killed (SIGKILL). A watch without --hosts keeps a and b, holding the file
     * back instead of writing a one-rank matrix, and picks up again when b is back; a watch with
     * --hosts a,b and --max-away 8 ends with exit 6 naming b. Neither file ever holds a bad text and
     * neither CMD runs for one.
     */
    @Test
    @Order(2)
    void aCrashedNodeNeverShrinksTheFile() throws Exception {
        Path file = dir.resolve("crash.json");
        Path runs = dir.resolve("crash.runs");
        Path err = dir.resolve("crash.err");
        Path hostsFile = dir.resolve("crash-hosts.json");
        Path hostsErr = dir.resolve("crash-hosts.err");
        railmap(err, "matrix", "--lab", "a", "--watch", "-o", file.toString(), "--on-change", cmd(file, runs, ""));
        Process hosts = railmap(hostsErr, "matrix", "--lab", "a", "--hosts", "a,b", "--max-away", "8", "--watch", "-o", hostsFile.toString());
        await("the first writes").atMost(BOUND).until(() -> text(file).equals(BOTH) && text(hostsFile).equals(BOTH));
        try (Poller poller = new Poller(file); Poller hostsPoller = new Poller(hostsFile)) {
            assertThat(Run.of("lab", "kill", "b").code()).isZero();
            long killed = System.nanoTime();
            await("held back").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: held back " + file + ": "));
            assertThat(hosts.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("the --hosts watch ends").isTrue();
            long ended = System.nanoTime();
            assertThat(hosts.exitValue()).as(Files.readString(hostsErr)).isEqualTo(ExitCodes.NODE_AWAY);
            assertThat(Files.readString(hostsErr)).contains("railmap: node b has had no record for more than 8 s (--max-away");
            System.err.println("crash: the --hosts watch ended " + TimeUnit.NANOSECONDS.toMillis(ended - killed) + " ms after the kill; "
                    + Files.readString(err).lines().filter(l -> l.contains("held back")).toList());

            assertThat(Run.of("lab", "start", "b").code()).isZero();
            await("b back: the file as before, said so").atMost(BOUND).until(() -> Files.readString(err).lines()
                    .anyMatch(l -> l.startsWith("railmap: kept " + file) || l.startsWith("railmap: rewrote " + file)));
            await().atMost(BOUND).until(() -> text(file).equals(BOTH));
            poller.close();
            hostsPoller.close();
            assertThat(poller.seen).isSubsetOf(GOOD);
            assertThat(hostsPoller.seen).isSubsetOf(GOOD);
            assertThat(runs(runs)).allMatch(GOOD::contains);
        }
    }

    /** Starts 16 {@code curl -sN .../v1/events} that never read what they asked for: over a's Unix socket, or over TCP on a's loopback. */
    private List<Process> idleStreams(boolean unix) throws Exception {
        List<Process> idle = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            List<String> command = unix ? List.of("curl", "-sN", "--unix-socket", LabSetup.daemonUrl("a").substring("unix:".length()),
                    "http://localhost/v1/events") : List.of("ip", "netns", "exec", new LabNames(PREFIX).nodeNamespace("a"), "curl", "-sN",
                    "http://127.0.0.1:7246/v1/events");
            idle.add(new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start());
        }
        started.addAll(idle);
        return idle;
    }

    /**
     * The 16 idle streams and hanging CMD: 16 idle {@code curl}s over TCP on a's loopback (the
     * lab's API address; one peer, "this host") before the watch starts, 16 more over a's Unix socket
     * as the watch's own user after it has its stream, and CMD {@code sleep 100}. The daemon serves each
     * peer at most 8, the watch takes its stream and keeps it, and a pulled cable is in the file within
     * 2 s of the moment a's daemon first says every member agrees on the new records.
     */
    @Test
    @Order(3)
    void thePulledCableIsInTheFileWithinTwoSecondsWhileCmdSleepsAndIdleStreamsAreHeld() throws Exception {
        Path file = dir.resolve("sleep.json");
        Path runs = dir.resolve("sleep.runs");
        Path err = dir.resolve("sleep.err");
        List<Process> idle = new ArrayList<>(idleStreams(false));
        Thread.sleep(2_000);
        railmap(err, "matrix", "--lab", "a", "--hosts", "a,b", "--watch", "-o", file.toString(), "--on-change", cmd(file, runs, "sleep 100"));
        await("the first write").atMost(BOUND).until(() -> text(file).equals(BOTH));
        await("CMD runs and sleeps").atMost(BOUND).until(() -> runs(runs).size() == 1);
        await("the watch's stream").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: following railmapd"));
        idle.addAll(idleStreams(true));
        Thread.sleep(2_000);
        String before = agreed();
        assertThat(before).isNotEmpty();
        long pulled = System.nanoTime();
        link("a", "en7", false);
        long[] agreedAt = {0};
        await("a's daemon agrees on new records").atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(() -> {
            String now = agreed();
            if (!now.isEmpty() && !now.equals(before)) {
                agreedAt[0] = System.nanoTime();
                return true;
            }
            return false;
        });
        await("the file without the pulled cable").atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> text(file).equals(EN6));
        long written = System.nanoTime();
        long fromAgreement = TimeUnit.NANOSECONDS.toMillis(written - agreedAt[0]);
        long held = idle.stream().filter(Process::isAlive).count();
        System.err.println("sleep: the file followed " + TimeUnit.NANOSECONDS.toMillis(written - pulled) + " ms after the pull, "
                + fromAgreement + " ms after a's daemon first agreed; curls still running: " + held + " of 32 (a refused one exits); "
                + "watch said: " + Files.readString(err).lines().filter(l -> l.contains("stream") || l.contains("railmapd")).toList());
        assertThat(fromAgreement).as("ms from agreement to the file").isLessThanOrEqualTo(2_000);
        assertThat(held).as("idle streams served: 8 this host, 7 for the watch's user besides the watch").isEqualTo(15);
        assertThat(Files.readString(err)).doesNotContain("refused the event stream");
        assertThat(runs(runs)).as("the run for the rewrite waits for the sleeping one").hasSize(1);
        link("a", "en7", true);
        await("the cable back in the file").atMost(BOUND).until(() -> text(file).equals(BOTH));
    }
}
