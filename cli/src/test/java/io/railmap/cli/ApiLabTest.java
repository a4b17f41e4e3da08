package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.Lab;
import io.railmap.lab.Schemathesis;
import io.railmap.process.ProcessTree;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API as outside programs use it (issue 31), against a real daemon in a lab node
 * ({@code two-crossed.json}, prefix {@value #PREFIX}), every program run inside node a's namespace against its
 * daemon's {@code 127.0.0.1:7246}: schemathesis (the pin of {@code bin/schemathesis-venv}) generates requests
 * from {@code GET /v1/openapi.json} and checks every answer against it (no 5xx, statuses, content types, bodies,
 * headers; a request the document calls invalid is refused with a 4xx; a method a resource does not take is 405
 * with Allow), {@value #EXAMPLES} examples per operation at most, a fixed seed; {@code /v1/events} never ends, so it
 * is left out of that run and tested apart, by the Python example ({@code examples/api/railmap_api.py}), which
 * reads the matrix of a,b and then the event a pulled cable raises, and so does the snippet docs/api.md shows.
 */
@ExtendWith(LabEndToEndTest.LabAvailable.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiLabTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "rmapi";
    /** The lab daemon's API inside its node's namespace ({@code LabSetup}'s {@code --api}). */
    private static final String API = "http://127.0.0.1:7246";
    /**
     * schemathesis' {@code --max-examples} per operation: 1,523 requests in all, 32 s here (docs/api-fuzz.md). No
     * {@code --max-time}: with one, schemathesis 4 fuzzes until the time is up, whatever the examples.
     */
    static final int EXAMPLES = 200;
    /** The fixed seed: a failure found once is found again by the same run. */
    static final int SEED = 31;
    /** The whole fuzz run at most: the test kills schemathesis then and fails. */
    private static final Duration FUZZ_BOUND = Duration.ofSeconds(240);

    @TempDir
    static Path dir;
    private static Lab lab;

    @BeforeAll
    static void labUp() throws Exception {
        Run.labUp(ROOT, dir, PREFIX, "two-crossed.json");
        lab = LabSetup.lab();
    }

    @AfterAll
    static void labDown() {
        Run down = Run.of("lab", "down");
        assertThat(down.code()).as(down.err()).isZero();
    }

    /** A program in node a's namespace, in {@code dir}, its output (both streams) to {@code log}. */
    private static Process inNodeA(List<String> command, Path log) throws Exception {
        return new ProcessBuilder(lab.execCommand("a", command)).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    private static String finish(Process p, Duration bound, Path log) throws Exception {
        if (!ProcessTree.waitFor(p, bound, Duration.ofSeconds(5))) {
            throw new AssertionError("still running after " + bound.toSeconds() + " s; its output:\n" + Files.readString(log));
        }
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    @ExtendWith(ApiFuzzAvailable.class)
    void schemathesisFindsNoServerErrorAndEveryAnswerAsTheDocumentSays() throws Exception {
        Path log = dir.resolve("schemathesis.log");
        List<String> command = new ArrayList<>(List.of(Schemathesis.command().toString(), "run", API + "/v1/openapi.json",
                "--exclude-path", "/v1/events",
                "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,"
                        + "response_headers_conformance,negative_data_rejection,unsupported_method",
                "--phases", "examples,coverage,fuzzing", "--max-examples", Integer.toString(EXAMPLES), "--seed", Integer.toString(SEED),
                "--workers", "1", "--request-timeout", "10", "--generation-database", "none", "--no-color"));
        long start = System.nanoTime();
        Process p = inNodeA(command, log);
        String out = finish(p, FUZZ_BOUND, log);
        long ms = (System.nanoTime() - start) / 1_000_000;
        Matcher cases = Pattern.compile("(\\d+) generated, (\\d+) passed").matcher(out);
        String summary = cases.find() ? cases.group() : "(no count)";
        String phases = out.lines().filter(l -> l.matches(".*(Examples|Coverage|Fuzzing) \\(in .*")).map(String::strip)
                .collect(java.util.stream.Collectors.joining("; "));
        System.err.printf("api fuzz: schemathesis %s in %d ms (%s; %d examples per operation at most, seed %d)%n", summary, ms, phases,
                EXAMPLES, SEED);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(summary).as(out).isNotEqualTo("(no count)");
        assertThat(Long.parseLong(cases.group(2))).as(out).isEqualTo(Long.parseLong(cases.group(1))).isGreaterThan(500);
        Matcher operations = Pattern.compile("Operations:\\s+(\\d+) selected / (\\d+) total").matcher(out);
        assertThat(operations.find()).as(out).isTrue();
        assertThat(Integer.parseInt(operations.group(1))).as("every operation but the event stream")
                .isEqualTo(Integer.parseInt(operations.group(2)) - 1);
    }

    /** The devices file of two-crossed.json with both cables: rail k is the same cable at both ends. */
    private static final String BOTH = "[[null,[\"rdma_en6\",\"rdma_en7\"]],[[\"rdma_en7\",\"rdma_en6\"],null]]";

    @Test
    @Order(2)
    void thePythonExampleReadsTheMatrixAndTheEventOfAPulledCable() throws Exception {
        String printed = readsTheEventOfAPulledCable("example", List.of("python3", ROOT.resolve("examples/api/railmap_api.py").toString(),
                "--daemon", API, "--hosts", "a,b", "--events", "1", "--type", "cable-lost", "--timeout", "60"), "a:en6",
                "(?m)^cable-lost: cable .*a:en6.* lost$");
        JsonNode devices = JSON.readTree(printed.substring(0, printed.indexOf("reading events")));
        assertThat(devices.toString()).isEqualTo(BOTH);
    }

    /** The snippet docs/api.md shows (its first python block), as it is, against the lab's a and b. */
    @Test
    @Order(3)
    void theSnippetOfTheApiPageRunsAsShown() throws Exception {
        String page = Files.readString(ROOT.resolve("docs/api.md"));
        Matcher block = Pattern.compile("```python\n(.*?)```", Pattern.DOTALL).matcher(page);
        assertThat(block.find()).as("a python block in docs/api.md").isTrue();
        Path snippet = Files.writeString(dir.resolve("snippet.py"), block.group(1));
        await("both cables are rails again after the last test").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> Run.of("matrix", "--lab", "a", "--hosts", "a,b").out().replaceAll("\\s", "").equals(BOTH));
        String printed = readsTheEventOfAPulledCable("snippet", List.of("python3", snippet.toString()), "a:en7",
                "(?m)^cable-lost cable .*a:en7.* lost$");
        assertThat(printed).startsWith("[[None, ['rdma_en6', 'rdma_en7']], [['rdma_en7', 'rdma_en6'], None]]\n");
    }

    /**
     * Runs a program in node a that prints the matrix, then {@code reading events} once its stream is open, then
     * exits 0 after the event a pulled {@code cable} raises, a line matching {@code eventLine}; plugs the cable back.
     *
     * @return what it printed before the cable was pulled
     */
    private static String readsTheEventOfAPulledCable(String name, List<String> command, String cable, String eventLine) throws Exception {
        Path log = dir.resolve(name + ".log");
        Process p = inNodeA(command, log);
        try {
            await(name + " opens the event stream").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(log).contains("reading events") || !p.isAlive());
            String printed = Files.readString(log);
            assertThat(p.isAlive()).as(printed).isTrue();
            Run pull = Run.of("lab", "cable", "down", cable);
            assertThat(pull.code()).as(pull.err()).isZero();
            String out = finish(p, Duration.ofSeconds(90), log);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).containsPattern(eventLine);
            return printed;
        } finally {
            ProcessTree.end(p, Duration.ofSeconds(5)); // ended already when it read its event
            Run.of("lab", "cable", "up", cable);
        }
    }

    /** The example's errors: an unknown host is the daemon's sentence and exit 1. */
    @Test
    @Order(4)
    void thePythonExampleSaysTheDaemonsErrorSentence() throws Exception {
        Path log = dir.resolve("example-unknown.log");
        Process p = inNodeA(List.of("python3", ROOT.resolve("examples/api/railmap_api.py").toString(), "--daemon", API, "--hosts", "a,zz"), log);
        String out = finish(p, Duration.ofSeconds(60), log);
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("railmap_api: /v1/matrix: 404: ", "zz");
    }
}
