package io.railmap.cli.follow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.UserError;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.client.EventFollower;
import io.railmap.cli.options.OutputFile;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.model.Names;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Keeps a file equal to what a command computes from a daemon's records, for as long as it runs:
 * writes it once the daemons agree, then follows the daemon's events and, after each burst of
 * changes that can change it (cables, ports, records, members, agreement; ended by
 * {@value #SETTLE_MS} ms of quiet, or after {@value #MAX_BURST_MS} ms), computes it again and rewrites it (temporary file and rename,
 * {@link OutputFile#write}) when the text differs and every member holds the same records
 * ({@code GET /v1/agreement}), so every rank's daemon would write the same file. After each rewrite it
 * says why (the changes, the first {@value #NAMED} named) and runs the {@code --on-change} command
 * ({@code sh -c}), waiting at most {@value #COMMAND_TIMEOUT_S} s for it. Runs until interrupted.
 */
public final class Rewriter {
    /** Quiet time that ends a burst of events, in ms. */
    static final long SETTLE_MS = 300;
    /** The longest a burst is collected, in ms: a stream that never goes quiet still gets its file rewritten. */
    static final long MAX_BURST_MS = 2_000;
    /** Changes named in one "rewrote" line. */
    static final int NAMED = 3;
    /** The longest an --on-change command may run, in seconds, before it is killed. */
    public static final long COMMAND_TIMEOUT_S = 300;
    /** Event types after which the file is computed again, in the order a rewrite names them (cables first). */
    private static final List<String> RELEVANT = Stream.concat(Stream.of(ChangeType.CABLE_LOST, ChangeType.CABLE_ADDED, ChangeType.PORT_DOWN,
            ChangeType.PORT_UP, ChangeType.MEMBER_LEFT, ChangeType.MEMBER_JOINED).map(ChangeType::wireName), Stream.of("missed",
            ChangeType.AGREEMENT_REACHED.wireName(), ChangeType.RECORD_CHANGED.wireName())).toList();

    /** What one computation gives: the file's text, and lines for standard error (findings). */
    public record Result(String text, List<String> notes) {
        /** Copies the list. */
        public Result {
            notes = List.copyOf(notes);
        }
    }

    private final String daemon;
    private final Path file;
    private final Callable<Result> compute;
    private final Optional<String> onChange;
    private final PrintWriter err;
    private Optional<String> written = Optional.empty();
    /**
     * Changes seen since the last write that did not lead to one (the daemons did not agree yet): the
     * first {@value #NAMED} by {@link #RELEVANT}'s order, and how many in all, whatever the stream sends.
     */
    private final List<EventFollower.Event> pending = new ArrayList<>();
    private long pendingCount;

    /**
     * @param daemon   the daemon's URL, whose events are followed and whose agreement is asked
     * @param file     the file kept
     * @param compute  computes the text from the daemon's records (asks the daemon each time)
     * @param onChange a shell command run after each write
     * @param err      where the lines saying what happened go
     */
    public Rewriter(String daemon, Path file, Callable<Result> compute, Optional<String> onChange, PrintWriter err) {
        this.daemon = daemon;
        this.file = file;
        this.compute = compute;
        this.onChange = onChange;
        this.err = err;
    }

    /**
     * Runs until the thread is interrupted (or the JVM stops: SIGINT).
     *
     * @throws DaemonClient.DaemonUnreachable when the daemon cannot be reached at the start
     * @throws UserError                      when the daemon refuses the stream or a computation's input
     * @throws Exception                      what the computation throws for a user's mistake
     */
    public void run() throws Exception {
        try (EventFollower events = new EventFollower(daemon, Optional.empty())) {
            // the stream is open before the first computation, so no change between the two is lost
            awaitOpen(events);
            update();
            while (!Thread.currentThread().isInterrupted()) {
                boolean changed = false;
                Optional<EventFollower.Item> item = events.next(1_000);
                long burstEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_BURST_MS);
                while (item.isPresent()) {
                    if (item.get() instanceof EventFollower.Notice notice) {
                        say(notice.sentence());
                    } else if (item.get() instanceof EventFollower.Event event && RELEVANT.contains(event.type())) {
                        remember(event);
                        changed = true;
                    }
                    item = System.nanoTime() < burstEnd ? events.next(SETTLE_MS) : Optional.empty();
                }
                if (changed) {
                    try {
                        update();
                    } catch (DaemonClient.DaemonUnreachable e) {
                        // the daemon went away between its events and the computation: the stream will resume
                        say(e.getMessage() + "; " + file + " is computed again at the next change");
                    }
                }
            }
        }
    }

    private void awaitOpen(EventFollower events) throws InterruptedException {
        while (true) {
            Optional<EventFollower.Item> item = events.next(DaemonClient.TIMEOUT_MS);
            if (item.isPresent() && item.get() instanceof EventFollower.Notice notice) {
                say(notice.sentence());
                if (notice.open()) {
                    return;
                }
            }
        }
    }

    /** Keeps the event among the first {@value #NAMED} to name, and counts it. */
    private void remember(EventFollower.Event event) {
        pendingCount++;
        pending.add(event);
        pending.sort(Comparator.comparingInt(e -> RELEVANT.indexOf(e.type())));
        if (pending.size() > NAMED) {
            pending.remove(NAMED);
        }
    }

    private void update() throws Exception {
        Result result = compute.call();
        if (written.isPresent() && written.get().equals(result.text())) {
            pending.clear();
            pendingCount = 0;
            return;
        }
        Optional<String> disagreement = disagreement();
        if (disagreement.isPresent()) {
            say("not writing " + file + " yet: " + disagreement.get() + "; waiting for the daemons to agree");
            return;
        }
        List<String> why = pending.stream().map(EventFollower.Event::message).toList();
        long more = pendingCount - why.size();
        pending.clear();
        pendingCount = 0;
        result.notes().forEach(this::say);
        boolean first = written.isEmpty();
        OutputFile.write(file, result.text());
        written = Optional.of(result.text());
        say(first ? "wrote " + file : "rewrote " + file + ": " + String.join("; ", why) + (more > 0 ? "; and " + more + " more changes" : ""));
        onChange.ifPresent(this::runCommand);
    }

    /** @return why the members do not hold the same records, empty when they do (or there is no cluster to ask) */
    private Optional<String> disagreement() {
        try (DaemonClient client = new DaemonClient(daemon)) {
            JsonNode agreement = new ObjectMapper().readTree(client.get("/v1/agreement"));
            return agreement.path("agreed").asBoolean(false) ? Optional.empty()
                    : Optional.of("not every member holds the same records (railmap agree)");
        } catch (UserError e) {
            // a daemon with no cluster member (503): its records are the only ones
            return Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.of("the daemon's agreement could not be read");
        }
    }

    private void runCommand(String command) {
        try {
            Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
            if (!p.waitFor(COMMAND_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                say("--on-change command did not end within " + COMMAND_TIMEOUT_S + " s and was killed");
            } else if (p.exitValue() != 0) {
                say("--on-change command exited " + p.exitValue());
            }
        } catch (java.io.IOException e) {
            say("--on-change command could not start: " + Names.escape(String.valueOf(e.getMessage()), 256));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void say(String sentence) {
        err.println("railmap: " + sentence);
        err.flush();
    }
}
