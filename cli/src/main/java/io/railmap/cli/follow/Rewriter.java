package io.railmap.cli.follow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.UserError;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.client.EventFollower;
import io.railmap.cli.options.OutputFile;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Keeps a file equal to what a command computes from a daemon's records, for as long as it runs:
 * writes it once the daemons agree, then follows the daemon's events and, after each burst of
 * changes that can change it (cables, ports, records, members, agreement; ended by
 * {@value #SETTLE_MS} ms of quiet, or after {@value #MAX_BURST_MS} ms), computes it again and
 * rewrites it (temporary file and rename, {@link OutputFile#write}) when the text differs.
 *
 * <p>A write needs the daemon's {@code GET /v1/agreement} to answer {@code "agreed": true} with the
 * {@code digest} of the very records the text was computed from ({@link Provenance#of}, over the
 * whole {@code GET /v1/snapshot}, as the daemon's cluster member digests what it holds), so every
 * rank's daemon would write the same file. Any other answer (not agreed, another digest, an error
 * status such as 503 busy, no answer) writes nothing: it says why on standard error (once per reason)
 * and tries again every {@value #RETRY_MS} ms until the file is written, events or not. A railmapd
 * always runs a cluster member (alone, it agrees with itself once its first view is installed); the
 * 503 "this daemon runs no cluster member" is no exception. Reading the records after the start
 * retries the same way when the daemon cannot be reached or answers 503 (busy); anything else ends
 * the command as it would at the start: the daemon refusing the records otherwise, the computation
 * refusing the user's input (a {@link UserError} or {@link IllegalArgumentException}, e.g. {@code
 * --hosts} naming a node whose record is gone), or the file that cannot be written.
 *
 * <p>After each rewrite it says why (the changes, the first {@value #NAMED} named) and runs the
 * {@code --on-change} command ({@code sh -c}), waiting at most {@value #COMMAND_TIMEOUT_S} s for it.
 * Runs until interrupted.
 */
public final class Rewriter {
    /** Quiet time that ends a burst of events, in ms. */
    static final long SETTLE_MS = 300;
    /** The longest a burst is collected, in ms: a stream that never goes quiet still gets its file rewritten. */
    static final long MAX_BURST_MS = 2_000;
    /** Time between attempts while the file is not what the daemon's records give (no agreement yet, an error), in ms. */
    static final long RETRY_MS = 2_000;
    /** Changes named in one "rewrote" line. */
    static final int NAMED = 3;
    /** The longest an --on-change command may run, in seconds, before it is killed. */
    public static final long COMMAND_TIMEOUT_S = 300;
    /** Event types after which the file is computed again, in the order a rewrite names them (cables first). */
    private static final List<String> RELEVANT = Stream.concat(Stream.of(ChangeType.CABLE_LOST, ChangeType.CABLE_ADDED, ChangeType.PORT_DOWN,
            ChangeType.PORT_UP, ChangeType.MEMBER_LEFT, ChangeType.MEMBER_JOINED).map(ChangeType::wireName), Stream.of("missed",
            ChangeType.AGREEMENT_REACHED.wireName(), ChangeType.RECORD_CHANGED.wireName())).toList();

    /** Computes the file from the records a daemon holds. */
    @FunctionalInterface
    public interface Computation {
        /**
         * @param records every record the daemon holds ({@code GET /v1/snapshot})
         * @return the file's text and notes
         * @throws Exception what the computation throws for a user's mistake
         */
        Result compute(Snapshot records) throws Exception;
    }

    /** What one computation gives: the file's text, and lines for standard error (findings). */
    public record Result(String text, List<String> notes) {
        /** Copies the list. */
        public Result {
            notes = List.copyOf(notes);
        }
    }

    private final String daemon;
    private final Path file;
    private final Supplier<Snapshot> records;
    private final Computation compute;
    private final Optional<String> onChange;
    private final PrintWriter err;
    private Optional<String> written = Optional.empty();
    /** The last reason given for not writing, so that each retry does not say it again. */
    private Optional<String> waiting = Optional.empty();
    /**
     * Changes seen since the last write that did not lead to one (the daemons did not agree yet): the
     * first {@value #NAMED} by {@link #RELEVANT}'s order, and how many in all, whatever the stream sends.
     */
    private final List<EventFollower.Event> pending = new ArrayList<>();
    private long pendingCount;

    /**
     * @param daemon   the daemon's URL, whose events are followed and whose agreement is asked
     * @param file     the file kept
     * @param records  reads every record the daemon holds ({@code GET /v1/snapshot}), once per computation
     * @param compute  computes the text from them
     * @param onChange a shell command run after each write
     * @param err      where the lines saying what happened go
     */
    public Rewriter(String daemon, Path file, Supplier<Snapshot> records, Computation compute, Optional<String> onChange, PrintWriter err) {
        this.daemon = daemon;
        this.file = file;
        this.records = records;
        this.compute = compute;
        this.onChange = onChange;
        this.err = err;
    }

    /**
     * Runs until the thread is interrupted (or the JVM stops: SIGINT).
     *
     * @throws DaemonClient.DaemonUnreachable when the daemon cannot be reached at the start
     * @throws UserError                      when the daemon refuses the stream, or the records (at the
     *                                        start; later, with a status other than 503), or the file
     *                                        cannot be written
     * @throws Exception                      what the computation throws for a user's mistake, at the
     *                                        start or later
     */
    public void run() throws Exception {
        try (EventFollower events = new EventFollower(daemon, Optional.empty())) {
            // the stream is open before the first computation, so no change between the two is lost
            awaitOpen(events);
            boolean current = update();
            long retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MS);
            while (!Thread.currentThread().isInterrupted()) {
                boolean changed = false;
                long wait = current ? 1_000 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(retryAt - System.nanoTime()));
                Optional<EventFollower.Item> item = events.next(wait);
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
                if (changed || (!current && System.nanoTime() - retryAt >= 0)) {
                    try {
                        current = update();
                    } catch (DaemonClient.DaemonUnreachable | DaemonClient.Refused e) {
                        // what may pass: the daemon went away, or was too busy to give its records; the
                        // computation's refusals and a file that cannot be written end the command
                        if (e instanceof DaemonClient.Refused refused && !refused.busy()) {
                            throw refused;
                        }
                        current = false;
                        waitFor(e.getMessage());
                    }
                    retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MS);
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

    /**
     * Computes the file and writes it when it changed and the daemons agree on the records used.
     *
     * @return whether the file is now what the records give (written, or already so); false when
     *         the daemons did not agree on them (said why)
     */
    private boolean update() throws Exception {
        Snapshot held = records.get();
        Result result = compute.compute(held);
        if (written.isPresent() && written.get().equals(result.text())) {
            pending.clear();
            pendingCount = 0;
            waiting = Optional.empty();
            return true;
        }
        Optional<String> disagreement = disagreement(Provenance.of(held.records()).digest());
        if (disagreement.isPresent()) {
            waitFor(disagreement.get());
            return false;
        }
        waiting = Optional.empty();
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
        return true;
    }

    /** Says why the file is not written, unless that was the last thing said about it. */
    private void waitFor(String why) {
        if (!waiting.equals(Optional.of(why))) {
            waiting = Optional.of(why);
            say("not writing " + file + " yet: " + why + "; asking again every " + RETRY_MS / 1000 + " s");
        }
    }

    /**
     * @param used the digest of the records the text was computed from
     * @return why the file may not be written: the members do not hold the same records, or they agree
     *         on other records than {@code used} (a change since), or the agreement could not be read
     *         (any error answer, no answer); empty when they agree on {@code used}
     */
    private Optional<String> disagreement(String used) {
        JsonNode agreement;
        try (DaemonClient client = new DaemonClient(daemon)) {
            agreement = new ObjectMapper().readTree(client.get("/v1/agreement"));
        } catch (UserError | DaemonClient.DaemonUnreachable e) {
            return Optional.of("the daemons' agreement is unknown: " + e.getMessage());
        } catch (java.io.IOException e) {
            return Optional.of("the daemons' agreement is unknown: railmapd at " + Names.escape(daemon, 256)
                    + " answered GET /v1/agreement with no JSON");
        }
        if (!agreement.path("agreed").asBoolean(false)) {
            return Optional.of("not every member holds the same records (railmap agree)");
        }
        String agreed = agreement.path("digest").asText("");
        if (!agreed.equals(used)) {
            return Optional.of("the members agree on records " + Names.escape(agreed, 80) + ", not on " + used
                    + ", the ones read (they changed since)");
        }
        return Optional.empty();
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
