package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.api.HttpLimits;
import io.railmap.daemon.cluster.Agreement;
import io.railmap.daemon.cluster.ClusterQueries;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.ChangeFeed;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.node.Rebuilds;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.provenance.Provenance;
import io.vertx.core.Vertx;
import io.vertx.ext.web.handler.HttpException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code railmap matrix --watch -o FILE --on-change CMD} and {@code railmap env --watch} as processes
 * of their own against a real API whose engine, change feed and event log are wired as in railmapd,
 * and whose cluster member answers {@code GET /v1/agreement} as each test says ({@link Answer}): one
 * write at start, one rewrite per change of the file (none for a change that leaves it as it is), the
 * command after each, each write a new file renamed into place (never a partial file), nothing
 * written until the members agree on the records read, nothing with error findings, a node that
 * leaves never shrinking the file, a command that never holds up a write, the file followed without
 * an event stream, a clean end on SIGINT, and an end with exit 1 for a mistake of the user's that
 * shows only while watching.
 */
class WatchRewriteTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    @TempDir
    Path dir;
    private Vertx vertx;
    private Rebuilds rebuilds;
    private Engine engine;
    private EventLog events;
    private String http;
    /** What the stub cluster member answers now. */
    private volatile Answer answer = Answer.AGREED;
    /** How many times the API asked it for its agreement. */
    private final AtomicInteger asked = new AtomicInteger();
    /** Where the --on-change command appends the size of each file written, one line per run. */
    private Path ran;
    /** The watch's standard error. */
    private Path err;

    /** The stub cluster member's answers to {@code GET /v1/agreement}. */
    private enum Answer {
        /** 200, agreed on the digest of the records the engine holds. */
        AGREED,
        /** 200, not agreed. */
        NOT_AGREED,
        /** 200, agreed on a digest that is not the records' (they changed since). */
        AGREED_ON_OTHERS,
        /** 503, as the API answers when busy. */
        BUSY,
        /** 503 "this daemon runs no cluster member", as the API answers without a cluster member. */
        NO_CLUSTER
    }

    private static Port port(String node, String netdev, String... far) {
        return new Port(node, netdev, Optional.of("rdma_" + netdev), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.empty(), Stream.of(far).map(PortRef::parse).toList());
    }

    @BeforeEach
    void daemon() throws Exception {
        ran = dir.resolve("ran.log");
        err = dir.resolve("err.log");
        engine = new Engine("a");
        events = new EventLog();
        ChangeFeed feed = new ChangeFeed(events);
        rebuilds = new Rebuilds(() -> feed.observe(engine.snapshot()));
        engine.onChange(rebuilds::request);
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6"), port("a", "en8")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7")), "en7", List.of(PortRef.parse("b:en6"))));
        engine.accept(new NodeRecord("b", 3, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
        vertx = Vertx.vertx();
        ClusterQueries cluster = new ClusterQueries() {
            @Override
            public Membership membership() {
                return new Membership("test", 1, List.of());
            }

            @Override
            public Optional<Agreement> agreement() {
                asked.incrementAndGet();
                Answer now = answer;
                if (now == Answer.BUSY) {
                    throw new HttpException(503, "stub: too busy to say");
                }
                List<NodeRecord> held = engine.snapshot().records();
                String digest = now == Answer.AGREED_ON_OTHERS ? Provenance.of(held.subList(0, 1)).digest() : Provenance.of(held).digest();
                return now == Answer.NO_CLUSTER ? Optional.empty()
                        : Optional.of(new Agreement("test", 1, digest, held.size(), now != Answer.NOT_AGREED, List.of()));
            }
        };
        ApiVerticle api = new ApiVerticle(engine, cluster, events, List::of,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), HttpLimits.DEFAULTS, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
        http = "http://127.0.0.1:" + api.actualPort();
    }

    @AfterEach
    void stop() throws Exception {
        rebuilds.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /** Awaits the command's n-th run; on a timeout the failure shows the watch's standard error. */
    private void runs(String alias, int n) throws Exception {
        try {
            await(alias).atMost(BOUND).until(() -> lines(ran).size() == n);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(alias + ": standard error was\n" + (Files.exists(err) ? Files.readString(err) : ""), e);
        }
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /** Starts {@code railmap ARGS --watch -o FILE --on-change 'wc -c < FILE >> ran'}, its standard error to {@link #err}. */
    private Process watch(Path file, String... args) throws Exception {
        return watchRunning(file, "", args);
    }

    /**
     * Starts {@code railmap ARGS --watch -o FILE --on-change 'wc -c < FILE >> ran; MORE'}, its standard error to {@link #err}.
     *
     * @param more what the command does after it counted the file, may be empty
     */
    private Process watchRunning(Path file, String more, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--daemon", http, "--watch", "-o", file.toString(), "--on-change", "wc -c < " + file + " >> " + ran
                + (more.isEmpty() ? "" : "; " + more)));
        return new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of(), all.toArray(String[]::new)))
                .redirectError(err.toFile()).redirectOutput(dir.resolve("out.log").toFile()).start();
    }

    /** Sends SIGINT and checks the process ended as Ctrl-C ends it: exit 130, no stack trace, no temporary file left. */
    private void interrupt(Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(130);
        assertThat(Files.readString(err, StandardCharsets.UTF_8)).doesNotContain("Exception", "\tat ");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    /**
     * Awaits the line saying why the file is not written, then two more asks for the agreement with no
     * event in between (the retry timer; the CLI asks again only after handling the last answer), and
     * checks that nothing was written meanwhile.
     */
    private void notWritten(Path file, String why) throws Exception {
        await(why).atMost(BOUND).until(() -> Files.readString(err).contains("railmap: not writing " + file + " yet: " + why));
        int before = asked.get();
        await("two more asks, with no event").atMost(BOUND).until(() -> asked.get() >= before + 2);
        assertThat(file).doesNotExist();
        assertThat(lines(ran)).isEmpty();
    }

    /**
     * Each write is a new file renamed over the old one (OutputFile): the rewrite gives the path another
     * inode, and a reader that opened the file before it still reads the whole old text.
     */
    @Test
    void theFileFollowsTheCablesOneRewritePerChangeAndSigintEndsItCleanly() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b");
        try {
            runs("the first write and its command", 1);
            String first = "[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n";
            assertThat(Files.readString(devices)).isEqualTo(first);
            assertThat(Files.readString(err)).contains("railmap: following railmapd at " + http, "railmap: wrote " + devices);
            Object firstInode = Files.getAttribute(devices, "unix:ino");

            try (InputStream before = Files.newInputStream(devices)) {
                // a change that leaves the matrix as it is (a port that is no rail goes down): no rewrite
                engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6"), port("a", "en8").withState(PortState.DOWN)));
                // then the cable a:en7-b:en6 is pulled: one rewrite, the command once more
                engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6").withState(PortState.DOWN),
                        port("a", "en8").withState(PortState.DOWN)));
                engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
                engine.accept(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6").withState(PortState.DOWN))));
                runs("the rewrite after the pull", 2);
                assertThat(new String(before.readAllBytes(), StandardCharsets.UTF_8)).as("read through a descriptor opened before the rewrite")
                        .isEqualTo(first);
            }
            assertThat(Files.readString(devices)).isEqualTo("[\n  [null, \"rdma_en6\"],\n  [\"rdma_en7\", null]\n]\n");
            assertThat(Files.getAttribute(devices, "unix:ino")).as("the rewritten file's inode").isNotEqualTo(firstInode);
            assertThat(Files.readString(err)).contains("railmap: rewrote " + devices + ": ", "cable a:en7\u2013b:en6 lost");
            assertThat(lines(ran).get(1).strip()).isEqualTo(String.valueOf(Files.size(devices)));

            interrupt(p);
            assertThat(lines(ran)).hasSize(2);
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("devices.json", "ran.log", "err.log", "out.log");
            }
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * {@code env --watch} as {@code matrix --watch}: the crossed cables put a's NICs on other rails than
     * b's (an error, cross-rail), so by default nothing is written, said in one line; with
     * {@code --allow-errors}, one write, none for a change that leaves the text, one rewrite for a pull.
     */
    @Test
    void theEnvFileFollowsTheCablesToo() throws Exception {
        Path env = dir.resolve("a.env");
        Process held = watch(env, "env", "--node", "a", "--for", "nccl");
        try {
            await("held back").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: held back " + env + ": error cross-rail "
                    + "(nothing written yet; trying again at the next change; --allow-errors writes such a text)"));
            interrupt(held);
            assertThat(env).doesNotExist();
            assertThat(lines(ran)).isEmpty();
        } finally {
            held.destroyForcibly();
        }
        Process p = watch(env, "env", "--node", "a", "--for", "nccl", "--allow-errors");
        try {
            runs("the first write and its command", 1);
            assertThat(Files.readAllLines(env)).contains("NCCL_IB_HCA==rdma_en6:1:0,rdma_en7:1:1,rdma_en8:1");
            assertThat(Files.readString(err)).contains("railmap: wrote " + env);

            // b's record again, the same ports under a new version: the same settings for a, no rewrite
            engine.accept(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
            // then the cable a:en7-b:en6 is pulled: a's port en7 is no compute NIC any more
            engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6").withState(PortState.DOWN), port("a", "en8")));
            engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
            engine.accept(new NodeRecord("b", 5, List.of(port("b", "en7", "a:en6"), port("b", "en6").withState(PortState.DOWN))));
            runs("the rewrite after the pull", 2);
            assertThat(Files.readAllLines(env)).contains("NCCL_IB_HCA==rdma_en6:1:0,rdma_en8:1");
            assertThat(Files.readString(err)).contains("railmap: rewrote " + env + ": ", "cable a:en7\u2013b:en6 lost");
            assertThat(lines(ran).get(1).strip()).isEqualTo(String.valueOf(Files.size(env)));

            interrupt(p);
            assertThat(lines(ran)).hasSize(2);
        } finally {
            p.destroyForcibly();
        }
    }

    /** Not agreed, then agreed on other records than those read: nothing written; agreed on them: written once, with no event. */
    @Test
    void nothingIsWrittenUntilTheMembersAgreeOnTheRecordsReadThenOnce() throws Exception {
        Path devices = writtenOnceOnlyAfter(
                Map.entry(Answer.NOT_AGREED, "not every member holds the same records (railmap agree)"),
                Map.entry(Answer.AGREED_ON_OTHERS, "the members agree on records sha256:"));
        assertThat(Files.readString(devices)).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n");
        assertThat(Files.readString(err)).containsOnlyOnce("railmap: wrote " + devices);
    }

    /**
     * An error answer to GET /v1/agreement (503 busy; 503 no cluster member) is no agreement: nothing
     * written; once it agrees the file is written, with no event (a quiet cluster).
     */
    @Test
    void anErrorAnswerToTheAgreementWritesNothing() throws Exception {
        String refused = "the daemons' agreement is unknown: railmapd at " + http + " refused the request: ";
        writtenOnceOnlyAfter(
                Map.entry(Answer.BUSY, refused + "stub: too busy to say"),
                Map.entry(Answer.NO_CLUSTER, refused + "this daemon runs no cluster member"));
    }

    /**
     * Watches the matrix of a and b while the stub answers GET /v1/agreement with each refusal in
     * turn (nothing written, the watch saying why), then agrees: the file is written once, with no
     * event, and the watch ends on SIGINT.
     *
     * @return the file written
     */
    @SafeVarargs
    private Path writtenOnceOnlyAfter(Map.Entry<Answer, String>... refusals) throws Exception {
        answer = refusals[0].getKey();
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b");
        try {
            for (Map.Entry<Answer, String> refusal : refusals) {
                answer = refusal.getKey();
                notWritten(devices, refusal.getValue());
            }
            answer = Answer.AGREED;
            runs("the write once they agree", 1);

            interrupt(p);
            assertThat(lines(ran)).hasSize(1);
        } finally {
            p.destroyForcibly();
        }
        return devices;
    }

    /** @return whether the process ended: gone, or a zombie its parent did not reap yet (state Z in /proc/PID/stat) */
    private static boolean ended(ProcessHandle h) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(h.pid()), "stat"));
            return !h.isAlive() || stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException gone) {
            return true;
        }
    }

    /** Awaits the end of a watch that should stop by itself, and gives its exit code. */
    private static int ended(Process p) throws Exception {
        assertThat(p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("the watch ended by itself").isTrue();
        return p.exitValue();
    }

    /** The cable a:en7-b:en6 is pulled (b's record at this version). */
    private void pullOne(int version) {
        engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6").withState(PortState.DOWN), port("a", "en8")));
        engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
        engine.accept(new NodeRecord("b", version, List.of(port("b", "en7", "a:en6"), port("b", "en6").withState(PortState.DOWN))));
    }

    /** Both cables are pulled: a and b share no cable, so jaccl can run no matrix of them. */
    private void pullBoth(int version) {
        engine.ports(List.of(port("a", "en6", "b:en7").withState(PortState.DOWN), port("a", "en7", "b:en6").withState(PortState.DOWN),
                port("a", "en8")));
        engine.neighbours(Map.of());
        engine.accept(new NodeRecord("b", version, List.of(port("b", "en7").withState(PortState.DOWN),
                port("b", "en6").withState(PortState.DOWN))));
    }

    private static final String TWO_WIRES = "[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n";
    private static final String ONE_WIRE = "[\n  [null, \"rdma_en6\"],\n  [\"rdma_en7\", null]\n]\n";

    /**
     * The flap: a text with error findings (both cables down: no wire between a and b) is held
     * back with one line a script reads, the findings before it; the file keeps the last good text and
     * the command does not run. The next change that gives a good text is written.
     */
    @Test
    void aTextWithErrorsIsHeldBackAndTheCommandDoesNotRunForIt() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b");
        try {
            runs("the first write and its command", 1);

            pullBoth(4);
            await("held back").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: held back " + devices + ": errors "));
            assertThat(Files.readString(err)).containsOnlyOnce("railmap: held back " + devices + ": errors ")
                    .contains("railmap: error jaccl-cannot-run ", "jaccl-cannot-run, ",
                            "(the file keeps the last good text; trying again at the next change; --allow-errors writes such a text)");
            assertThat(Files.readString(devices)).isEqualTo(TWO_WIRES);
            assertThat(lines(ran)).hasSize(1);

            pullOne(5);
            runs("the rewrite once a cable is back", 2);
            assertThat(Files.readString(devices)).isEqualTo(ONE_WIRE);
            // the rewrite names the changes since the last write, those of the text held back included
            assertThat(Files.readString(err)).contains("rewrote " + devices + ": cable a:en6\u2013b:en7 lost");
            interrupt(p);
            assertThat(lines(ran)).hasSize(2);
        } finally {
            p.destroyForcibly();
        }
    }

    /** {@code --allow-errors} writes the text jaccl cannot run, and runs the command for it. */
    @Test
    void allowErrorsWritesATextWithErrors() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b", "--allow-errors");
        try {
            runs("the first write and its command", 1);
            pullBoth(4);
            runs("the rewrite", 2);
            assertThat(Files.readString(devices)).isEqualTo("[\n  [null, null],\n  [null, null]\n]\n");
            assertThat(Files.readString(err)).contains("railmap: error jaccl-cannot-run ").doesNotContain("held back");
            interrupt(p);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A node of {@code --hosts} whose record leaves (a crash) does not shrink the file: it is held back,
     * saying so once, and the watch waits for the node at most {@code --max-away}, then ends with exit 6
     * naming it; the file stays as written and the command does not run.
     */
    @Test
    void aNodeOfHostsThatStaysAwayHoldsTheFileThenEndsTheWatchWithExitSix() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b", "--max-away", "3");
        try {
            runs("the first write and its command", 1);

            engine.forget("b");

            assertThat(ended(p)).isEqualTo(ExitCodes.NODE_AWAY);
            assertThat(Files.readString(err)).containsOnlyOnce("railmap: held back " + devices + ": node b has no record (known: a); "
                            + "waiting at most 3 s for it (--max-away), then exit 6")
                    .contains("railmap: node b has had no record for more than 3 s (--max-away; known: a): " + devices
                            + " stays as last written")
                    .doesNotContain("Exception", "\tat ");
            assertThat(Files.readString(devices)).isEqualTo(TWO_WIRES);
            assertThat(lines(ran)).hasSize(1);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * The crash without {@code --hosts}: the file is for the nodes of its first write, so b's
     * record leaving holds it back instead of writing a one-rank matrix; b's return (its cables as
     * before) leaves the file as it is, said in one line, and a later change is written as usual.
     * {@code --follow-members} instead follows the nodes with records.
     */
    @Test
    void withoutHostsTheNodesOfTheFirstWriteStayAndANodeThatReturnsResumesTheFile() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix");
        try {
            runs("the first write and its command", 1);

            engine.forget("b");
            await("held back").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: held back " + devices
                    + ": node b has no record (known: a); waiting at most 300 s"));
            engine.accept(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
            await("kept").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: kept " + devices
                    + ": the records give what it holds again"));
            pullOne(5);
            runs("the rewrite after the pull", 2);
            assertThat(Files.readString(devices)).isEqualTo(ONE_WIRE);
            interrupt(p);
        } finally {
            p.destroyForcibly();
        }
        Files.delete(devices);
        Files.delete(ran);
        engine.accept(new NodeRecord("b", 6, List.of(port("b", "en7", "a:en6"), port("b", "en6", "a:en7"))));
        Process follow = watch(devices, "matrix", "--follow-members", "--allow-errors");
        try {
            runs("the first write", 1);
            engine.forget("b");
            runs("the one-rank rewrite", 2);
            assertThat(Files.readString(devices)).isEqualTo("[\n  [null]\n]\n");
            interrupt(follow);
        } finally {
            follow.destroyForcibly();
        }
    }

    /**
     * The hanging command: while the first run sleeps, a pulled cable is written at once; the
     * rewrite's run is queued, the sleeping one is ended (with the sleep it started) after
     * {@code --on-change-timeout}, and the queued one then runs for the new file. The command's output
     * comes out prefixed.
     */
    @Test
    void aSleepingCommandNeverHoldsUpTheFileAndIsEndedAfterItsTimeout() throws Exception {
        Path devices = dir.resolve("devices.json");
        Process p = watchRunning(devices, "echo ran; sleep 100", "matrix", "--hosts", "a,b", "--on-change-timeout", "4");
        try {
            runs("the first run", 1);
            List<ProcessHandle> sleeping = new ArrayList<>();
            await("its sleep").atMost(BOUND).until(() -> {
                sleeping.clear();
                p.descendants().filter(h -> h.info().commandLine().orElse("").contains("sleep 100")).forEach(sleeping::add);
                return !sleeping.isEmpty();
            });

            pullOne(4);
            await("the rewrite while the command sleeps").atMost(Duration.ofSeconds(3)).until(() -> Files.readString(devices).equals(ONE_WIRE));
            assertThat(lines(ran)).as("the run for the rewrite waits for the sleeping one").hasSize(1);

            runs("the second run, after the first was ended", 2);
            await("the first run's sleep ended").atMost(BOUND).until(() -> sleeping.stream().allMatch(WatchRewriteTest::ended));
            assertThat(lines(ran).get(1).strip()).isEqualTo(String.valueOf(ONE_WIRE.length()));
            assertThat(Files.readString(err)).contains("railmap: --on-change command did not end within 4 s (--on-change-timeout) and was "
                    + "ended", "railmap: on-change: ran");
            interrupt(p);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * Every event stream slot taken (the 16 idle streams): the watch still writes the file,
     * reading the records every 2 s, and follows a pulled cable; it says once that the stream was
     * refused, and takes the stream when a slot frees.
     */
    @Test
    void withEveryStreamSlotTakenTheFileIsWrittenAndFollowsByAskingEveryTwoSeconds() throws Exception {
        List<Runnable> held = new ArrayList<>();
        for (int i = 0; i < events.maxStreams(); i++) {
            held.add(events.subscribe(Optional.empty(), "test-" + i, e -> { }, why -> { }).close());
        }
        Path devices = dir.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b");
        try {
            runs("the first write", 1);
            pullOne(4);
            runs("the rewrite after the pull", 2);
            assertThat(Files.readString(devices)).isEqualTo(ONE_WIRE);
            assertThat(Files.readString(err)).containsOnlyOnce("refused the event stream")
                    .contains("; meanwhile reading the records every 2 s");

            held.forEach(Runnable::run);
            await("the stream once a slot is free").atMost(BOUND).until(() -> Files.readString(err).contains("railmap: following railmapd"));
            interrupt(p);
        } finally {
            held.forEach(Runnable::run);
            p.destroyForcibly();
        }
    }

    /**
     * A file that can no longer be written (its directory removed while watching) is the user's to
     * fix: the command ends with exit 1 naming it, as {@code -o} into a missing directory does at the
     * start, instead of asking again forever.
     */
    @Test
    void aFileThatCanNoLongerBeWrittenEndsTheWatch() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path devices = sub.resolve("devices.json");
        Process p = watch(devices, "matrix", "--hosts", "a,b");
        try {
            runs("the first write and its command", 1);
            Files.delete(devices);
            Files.delete(sub);

            // the cable a:en7-b:en6 is pulled: the matrix changes and is written again
            engine.ports(List.of(port("a", "en6", "b:en7"), port("a", "en7", "b:en6").withState(PortState.DOWN), port("a", "en8")));
            engine.neighbours(Map.of("en6", List.of(PortRef.parse("b:en7"))));
            engine.accept(new NodeRecord("b", 4, List.of(port("b", "en7", "a:en6"), port("b", "en6").withState(PortState.DOWN))));

            assertThat(ended(p)).isEqualTo(ExitCodes.INPUT);
            assertThat(Files.readString(err)).contains("railmap: cannot write -o " + devices + ": its directory does not exist")
                    .doesNotContain("not writing", "Exception", "\tat ");
            assertThat(lines(ran)).hasSize(1);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void watchWithoutADaemonOrAFileOrOnChangeAloneIsAnError() {
        Run snapshot = Run.of("matrix", "--snapshot", "../examples/snapshots/two-leaves.json", "--watch", "-o", dir.resolve("x").toString());
        assertThat(snapshot.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(snapshot.err()).startsWith("railmap: --watch follows a daemon's changes: give --daemon URL or --lab NODE, not --snapshot");
        Run stdout = Run.of("env", "--daemon", http, "--node", "a", "--for", "nccl", "--watch");
        assertThat(stdout.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(stdout.err()).startsWith("railmap: --watch rewrites a file: give -o FILE");
        Run alone = Run.of("matrix", "--daemon", http, "--on-change", "true");
        assertThat(alone.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(alone.err()).startsWith("railmap: --on-change runs after each rewrite of --watch: give --watch too");
        Run away = Run.of("matrix", "--daemon", http, "--max-away", "5");
        assertThat(away.err()).startsWith("railmap: --max-away bounds how long --watch waits for a node: give --watch too");
        Run zero = Run.of("matrix", "--daemon", http, "--watch", "-o", dir.resolve("x").toString(), "--max-away", "0");
        assertThat(zero.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(zero.err()).startsWith("railmap: --max-away 0 is outside 1 to 86400 seconds");
        Run both = Run.of("matrix", "--daemon", http, "--hosts", "a,b", "--watch", "-o", dir.resolve("x").toString(), "--follow-members");
        assertThat(both.err()).startsWith("railmap: --follow-members ranks every node with a record: leave out --hosts");
        Run timeout = Run.of("env", "--daemon", http, "--node", "a", "--for", "nccl", "--watch", "-o", dir.resolve("x").toString(),
                "--on-change-timeout", "3");
        assertThat(timeout.err()).startsWith("railmap: --on-change-timeout bounds the --on-change command: give --on-change CMD too");
    }
}
