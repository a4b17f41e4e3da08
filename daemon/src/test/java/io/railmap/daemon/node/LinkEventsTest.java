package io.railmap.daemon.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LinkEvents} with real child processes ({@code sh}) standing in for {@code ip monitor}: one
 * event per line, however long; a flood read at a bounded rate; a child that exits, or a command
 * that cannot run, restarted with a growing back-off and logged once.
 */
class LinkEventsTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    /** Short enough for a test: settle 200 ms, back-off 100 ms doubling to 400 ms. */
    private static final LinkEvents.Timing FAST = new LinkEvents.Timing(200, 100, 400, 60_000);

    @TempDir
    Path dir;
    private final List<LinkEvents> started = new ArrayList<>();
    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(LinkEvents.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(capture);
    }

    @AfterEach
    void stop() {
        started.forEach(LinkEvents::close);
        logger.removeHandler(capture);
    }

    private LinkEvents start(List<String> command, Runnable onEvent, LinkEvents.Running onRunning) {
        LinkEvents events = new LinkEvents(command, onEvent, onRunning, FAST);
        started.add(events);
        events.start();
        return events;
    }

    private static List<String> read(String text) throws Exception {
        List<String> lines = new ArrayList<>();
        new LinkEvents(List.of("unused"), () -> { }, r -> { }).read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                lines::add);
        return lines;
    }

    @Test
    void eachLineIsOneEventCutAtTheBoundAndALastLineWithoutItsEndCounts() throws Exception {
        String huge = "x".repeat(LinkEvents.MAX_LINE_BYTES * 3);
        List<String> lines = read("2: en6: <NO-CARRIER> state DOWN\n\n" + huge + "\n3: en7 inet6 fe80::1/64\n4: tail");

        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).isEqualTo("2: en6: <NO-CARRIER> state DOWN");
        assertThat(lines.get(1)).isEmpty();
        assertThat(lines.get(2)).hasSize(LinkEvents.MAX_LINE_BYTES);
        assertThat(lines.get(3)).isEqualTo("3: en7 inet6 fe80::1/64");
        assertThat(lines.get(4)).isEqualTo("4: tail");
        assertThat(read("")).isEmpty();
    }

    @Test
    void aFloodOfLinesIsReadAtMostTheBoundEachSecond() throws Exception {
        int total = LinkEvents.MAX_LINES_PER_SECOND * 3;
        InputStream flood = new ByteArrayInputStream("1: en6 changed\n".repeat(total).getBytes(StandardCharsets.US_ASCII));
        List<Long> at = new ArrayList<>();
        long start = System.nanoTime();
        new LinkEvents(List.of("unused"), () -> { }, r -> { }).read(flood, line -> at.add(System.nanoTime()));

        assertThat(at).hasSize(total);
        // a flood read at full speed would take all of them within milliseconds; the bound spreads
        // them over three windows of a second, so the last one comes two seconds after the first
        long spanMs = TimeUnit.NANOSECONDS.toMillis(at.get(total - 1) - start);
        assertThat(spanMs).as("ms from the first line to the last of %d", total).isGreaterThanOrEqualTo(1_900);
        assertThat(logged).singleElement().asString().contains("printed more than " + LinkEvents.MAX_LINES_PER_SECOND + " lines in a second");
    }

    @Test
    void aRunningChildsLinesBecomeEventsAndClosingEndsIt() throws Exception {
        Path pid = dir.resolve("pid");
        AtomicInteger events = new AtomicInteger();
        List<Boolean> running = new CopyOnWriteArrayList<>();
        LinkEvents linkEvents = start(List.of("sh", "-c", "echo $$ > " + pid + "; sleep 0.5; echo '2: en6: <NO-CARRIER>'; echo '2: en6 inet6 fe80::1';"
                + " exec sleep 300"), events::incrementAndGet, running::add);

        await().atMost(BOUND).until(() -> events.get() == 2);
        assertThat(running).containsExactly(true);
        assertThat(logged).singleElement().asString().startsWith("INFO link events read from sh -c");
        long child = Long.parseLong(Files.readString(pid).trim());
        assertThat(ProcessHandle.of(child)).isPresent();

        linkEvents.close();

        await().atMost(BOUND).until(() -> ProcessHandle.of(child).isEmpty());
        assertThat(running).containsExactly(true, false);
    }

    @Test
    void aChildThatExitsIsStartedAgainLessAndLessOftenAndLoggedOnce() throws Exception {
        Path starts = dir.resolve("starts");
        List<Boolean> running = new CopyOnWriteArrayList<>();
        // each run: one line, then exit 3 at once (as ip does when it cannot open its netlink socket)
        start(List.of("sh", "-c", "date +%s%N >> " + starts + "; echo 'Cannot open netlink socket: Permission denied'; exit 3"),
                () -> { }, running::add);

        await().atMost(BOUND).until(() -> Files.exists(starts) && Files.readAllLines(starts).size() >= 5);

        List<Long> at = Files.readAllLines(starts).stream().map(Long::parseLong).toList();
        // back-off 100, 200, 400, 400 ms (plus the time each start takes): the gaps never shrink below the back-off
        assertThat(TimeUnit.NANOSECONDS.toMillis(at.get(1) - at.get(0))).isGreaterThanOrEqualTo(100);
        assertThat(TimeUnit.NANOSECONDS.toMillis(at.get(2) - at.get(1))).isGreaterThanOrEqualTo(200);
        assertThat(TimeUnit.NANOSECONDS.toMillis(at.get(3) - at.get(2))).isGreaterThanOrEqualTo(400);
        assertThat(TimeUnit.NANOSECONDS.toMillis(at.get(4) - at.get(3))).isGreaterThanOrEqualTo(400);
        assertThat(running).as("a child that exits within the settling time never counts as running").isEmpty();
        assertThat(logged).singleElement().asString().startsWith("WARNING link events unavailable: sh -c")
                .contains("exited with code 3 (its last line: \"Cannot open netlink socket: Permission denied\")")
                .contains("discovery polls every --link-poll-ms instead");
    }

    @Test
    void aCommandThatCannotRunIsLoggedOnceAndEventsResumeWhenAChildRunsAgain() throws Exception {
        Path script = dir.resolve("monitor");
        List<Boolean> running = new CopyOnWriteArrayList<>();
        AtomicInteger events = new AtomicInteger();
        start(List.of(script.toString()), events::incrementAndGet, running::add);

        await().atMost(BOUND).until(() -> !logged.isEmpty());
        Files.writeString(script, "#!/bin/sh\necho '5: en8: <BROADCAST,UP,LOWER_UP>'\nexec sleep 300\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();

        await().atMost(BOUND).until(() -> events.get() == 1);
        assertThat(running).containsExactly(true);
        assertThat(logged).hasSize(2);
        assertThat(logged.get(0)).startsWith("WARNING link events unavailable: cannot run " + script).contains("(is iproute2 installed?)");
        assertThat(logged.get(1)).startsWith("INFO link events read again from " + script);
    }
}
