package io.railmap.cli.follow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.UserError;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.client.EventFollower;
import io.railmap.cli.options.OutputFile;
import io.railmap.cli.options.WatchOptions;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.NoRingException;
import io.railmap.matrix.provenance.Provenance;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Keeps a file equal to the last good text a command computes from a daemon's records, for as long
 * as it runs ({@code matrix --watch}, {@code env --watch}). docs/follow.md is the specification: when
 * the text is computed (a burst of events ended by {@value #SETTLE_MS} ms of quiet or cut at
 * {@value #MAX_BURST_MS} ms; every {@value #RETRY_MS} ms without a stream), the three gates before a
 * write (every node of the file has a record, else {@link NodeAway} after {@code --max-away}; no error
 * finding nor {@link NoRingException}; the daemon's agreement on the digest of those very records,
 * {@link Provenance#of}), and the lines it prints. Writes go through {@link OutputFile#write}; after
 * each, {@link OnChange} runs {@code --on-change}, never waited for.
 *
 * <p>Errors: reading the records after the start retries while the daemon is unreachable or busy
 * (503); anything else ends the command as it would at the start (the daemon refusing the records
 * or the stream, a {@link UserError} or {@link IllegalArgumentException} from the computation, a file
 * that cannot be written).
 */
public final class Rewriter {
    /** Quiet time that ends a burst of events, in ms. */
    static final long SETTLE_MS = 300;
    /** The longest a burst is collected, in ms: a stream that never goes quiet still gets its file rewritten. */
    static final long MAX_BURST_MS = 2_000;
    /** Time between computations while there is no event stream, or something no event announces is awaited, in ms. */
    public static final long RETRY_MS = 2_000;
    /** Changes named in one "rewrote" line. */
    static final int NAMED = 3;
    /** The stable start of the line saying the file was not written although the records changed, after {@code railmap: }. */
    public static final String HELD_BACK = "held back ";
    /** Event types after which the file is computed again, in the order a rewrite names them (cables first). */
    private static final List<String> RELEVANT = Stream.concat(Stream.of(ChangeType.CABLE_LOST, ChangeType.CABLE_ADDED, ChangeType.PORT_DOWN,
            ChangeType.PORT_UP, ChangeType.MEMBER_LEFT, ChangeType.MEMBER_JOINED).map(ChangeType::wireName), Stream.of("missed",
            ChangeType.AGREEMENT_REACHED.wireName(), ChangeType.RECORD_CHANGED.wireName())).toList();

    /** Computes the file from the records a daemon holds. */
    @FunctionalInterface
    public interface Computation {
        /**
         * @param records every record the daemon holds ({@code GET /v1/snapshot})
         * @param nodes   the nodes the file is for, each with a record among them, in rank order
         * @return the file's text and findings
         * @throws Exception what the computation throws for a user's mistake
         */
        Result compute(Snapshot records, List<String> nodes) throws Exception;
    }

    /**
     * What one computation gives.
     *
     * @param text   the file's text
     * @param notes  lines for standard error (findings worth a line)
     * @param errors the codes of its error findings, each once; empty when the library runs it
     */
    public record Result(String text, List<String> notes, List<String> errors) {
        /** Copies the lists. */
        public Result {
            notes = List.copyOf(notes);
            errors = errors.stream().distinct().toList();
        }
    }

    /** What one attempt left to do. */
    private enum After {
        /** Nothing until the next change: the file is what the records give, or held back until they change. */
        NEXT_CHANGE,
        /** Compute again in {@value #RETRY_MS} ms, events or not (no agreement yet, a node away, the daemon busy). */
        RETRY
    }

    private final WatchOptions.Target target;
    private final Supplier<Snapshot> records;
    private final Computation compute;
    private final PrintWriter err;
    private Optional<String> written = Optional.empty();
    /** The nodes of the first write, when the file is for them (no nodes named, no --follow-members). */
    private Optional<List<String>> firstNodes = Optional.empty();
    /** Since when (System.nanoTime) a node of the file has had no record. */
    private Optional<Long> awaySince = Optional.empty();
    /** The last reason given for not writing, so that each attempt does not say it again. */
    private Optional<String> waiting = Optional.empty();
    /** The last sentence said about the stream being refused or dropped, so that each retry does not say it again. */
    private Optional<String> streamTrouble = Optional.empty();
    /** Whether the records were read once: the daemon was reached. */
    private boolean reached;
    /**
     * Changes seen since the last write (there may have been attempts that wrote nothing): the first
     * {@value #NAMED} by {@link #RELEVANT}'s order, and how many in all, whatever the stream sends.
     */
    private final List<EventFollower.Event> pending = new ArrayList<>();
    private long pendingCount;

    /**
     * @param target  what to keep and how
     * @param records reads every record the daemon holds ({@code GET /v1/snapshot}), once per computation
     * @param compute computes the text from them
     * @param err     where the lines saying what happened go
     */
    public Rewriter(WatchOptions.Target target, Supplier<Snapshot> records, Computation compute, PrintWriter err) {
        this.target = target;
        this.records = records;
        this.compute = compute;
        this.err = err;
    }

    /**
     * Runs until the thread is interrupted (or the JVM stops: SIGINT).
     *
     * @throws DaemonClient.DaemonUnreachable when the daemon cannot be reached at the start
     * @throws UserError                      when the daemon refuses the stream (other than 5xx), or the
     *                                        records (at the start; later, with a status other than 503),
     *                                        or the file cannot be written
     * @throws NodeAway                       when a node of the file has no record for longer than {@code --max-away}
     * @throws Exception                      what the computation throws for a user's mistake, at the
     *                                        start or later
     */
    public void run() throws Exception {
        try (EventFollower events = new EventFollower(target.daemon(), Optional.empty());
             OnChange command = target.onChange().map(c -> new OnChange(c, target.onChangeTimeout(), this::say)).orElse(null)) {
            boolean open = false;
            After after = After.RETRY;
            long retryAt = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                boolean polling = !open || after == After.RETRY;
                long wait = polling ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(retryAt - System.nanoTime())) : 1_000;
                Optional<EventFollower.Item> item = events.next(wait);
                boolean changed = false;
                long burstEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_BURST_MS);
                while (item.isPresent()) {
                    if (item.get() instanceof EventFollower.Notice notice) {
                        open = notice.open();
                        // a stream that (re)opens may follow changes it did not see: compute once more
                        changed |= open;
                        streamNotice(notice);
                    } else if (item.get() instanceof EventFollower.Event event && RELEVANT.contains(event.type())) {
                        remember(event);
                        changed = true;
                    }
                    item = System.nanoTime() < burstEnd ? events.next(SETTLE_MS) : Optional.empty();
                }
                if (changed || (!open || after == After.RETRY) && System.nanoTime() - retryAt >= 0) {
                    after = attempt(command);
                    retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MS);
                }
            }
        }
    }

    /** Says what happened to the stream: each opening; a refusal or drop once until the stream opens again. */
    private void streamNotice(EventFollower.Notice notice) {
        if (notice.open()) {
            streamTrouble = Optional.empty();
            say(notice.sentence());
        } else if (streamTrouble.isEmpty()) {
            streamTrouble = Optional.of(notice.sentence());
            say(notice.sentence() + "; meanwhile reading the records every " + RETRY_MS / 1000 + " s");
        }
    }

    /** One attempt, its passing failures said and retried. */
    private After attempt(OnChange command) throws Exception {
        try {
            return update(command);
        } catch (DaemonClient.DaemonUnreachable | DaemonClient.Refused e) {
            // what may pass: the daemon went away, or was too busy to give its records; at the start, an
            // unreachable daemon ends the command, as do the computation's refusals and a file that cannot be written
            if (e instanceof DaemonClient.Refused refused && !refused.busy() || e instanceof DaemonClient.DaemonUnreachable && !reached) {
                throw e;
            }
            waitFor(e.getMessage());
            return After.RETRY;
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

    /** Computes the text and writes it when it changed and passes the gates (the class says which). */
    private After update(OnChange command) throws Exception {
        Snapshot held = records.get();
        reached = true;
        List<String> present = held.nodes().stream().sorted(NaturalOrder.INSTANCE).toList();
        List<String> nodes = target.nodes().or(() -> firstNodes).orElse(present);
        List<String> away = nodes.stream().filter(n -> !present.contains(n)).toList();
        if (!away.isEmpty()) {
            return awaited(away, present);
        }
        awaySince = Optional.empty();
        Result result;
        try {
            result = compute.compute(held, nodes);
        } catch (NoRingException e) {
            holdBack(List.of(), e.getMessage());
            return After.NEXT_CHANGE;
        }
        if (!target.allowErrors() && !result.errors().isEmpty()) {
            holdBack(result.notes(), (result.errors().size() == 1 ? "error " : "errors ") + String.join(", ", result.errors()) + " ("
                    + (written.isPresent() ? "the file keeps the last good text" : "nothing written yet")
                    + "; trying again at the next change; --allow-errors writes such a text)");
            return After.NEXT_CHANGE;
        }
        if (written.isPresent() && written.get().equals(result.text())) {
            if (waiting.isPresent()) {
                say("kept " + target.file() + ": the records give what it holds again");
            }
            pending.clear();
            pendingCount = 0;
            waiting = Optional.empty();
            return After.NEXT_CHANGE;
        }
        Optional<String> disagreement = disagreement(Provenance.of(held.records()).digest());
        if (disagreement.isPresent()) {
            waitFor(disagreement.get());
            return After.RETRY;
        }
        waiting = Optional.empty();
        List<String> why = pending.stream().map(EventFollower.Event::message).toList();
        long more = pendingCount - why.size();
        pending.clear();
        pendingCount = 0;
        result.notes().forEach(this::say);
        boolean first = written.isEmpty();
        OutputFile.write(target.file(), result.text());
        written = Optional.of(result.text());
        if (first && target.nodes().isEmpty() && !target.followMembers()) {
            firstNodes = Optional.of(nodes);
        }
        say(first ? "wrote " + target.file() : "rewrote " + target.file() + ": " + (why.isEmpty() ? "the records changed" : String.join("; ", why))
                + (more > 0 ? "; and " + more + " more changes" : ""));
        if (command != null) {
            command.request();
        }
        return After.NEXT_CHANGE;
    }

    /**
     * A node of the file has no record: held back until it is back, at most {@code --max-away}.
     *
     * @throws NodeAway when it has been away longer
     */
    private After awaited(List<String> away, List<String> present) {
        long now = System.nanoTime();
        long since = awaySince.orElse(now);
        awaySince = Optional.of(since);
        String nodes = (away.size() == 1 ? "node " : "nodes ") + String.join(", ", away.stream().map(Names::escape).toList());
        String known = present.isEmpty() ? "none" : String.join(", ", present.stream().limit(8).toList()) + (present.size() > 8
                ? " and " + (present.size() - 8) + " more" : "");
        long limit = target.maxAway().toSeconds();
        if (now - since > target.maxAway().toNanos()) {
            throw new NodeAway(nodes + (away.size() == 1 ? " has" : " have") + " had no record for more than " + limit + " s (--max-away; "
                    + "known: " + known + "): " + target.file() + " stays as last written; start the node's railmapd, or watch "
                    + "without it (--hosts)");
        }
        holdBack(List.of(), nodes + (away.size() == 1 ? " has" : " have") + " no record (known: " + known + "); waiting at most " + limit
                + " s for " + (away.size() == 1 ? "it" : "them") + " (--max-away), then exit 6");
        return After.RETRY;
    }

    /** Says, once per reason, that the file keeps what it holds: the notes, then {@code held back FILE: REASON}. */
    private void holdBack(List<String> notes, String reason) {
        String line = HELD_BACK + target.file() + ": " + reason;
        if (!waiting.equals(Optional.of(line))) {
            waiting = Optional.of(line);
            notes.forEach(this::say);
            say(line);
        }
    }

    /** Says why the file is not written yet, unless that was the last thing said about it. */
    private void waitFor(String why) {
        String line = "not writing " + target.file() + " yet: " + why + "; asking again every " + RETRY_MS / 1000 + " s";
        if (!waiting.equals(Optional.of(line))) {
            waiting = Optional.of(line);
            say(line);
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
        try (DaemonClient client = new DaemonClient(target.daemon())) {
            agreement = new ObjectMapper().readTree(client.get("/v1/agreement"));
        } catch (UserError | DaemonClient.DaemonUnreachable e) {
            return Optional.of("the daemons' agreement is unknown: " + e.getMessage());
        } catch (java.io.IOException e) {
            return Optional.of("the daemons' agreement is unknown: railmapd at " + Names.escape(target.daemon(), 256)
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

    private synchronized void say(String sentence) {
        err.println("railmap: " + sentence);
        err.flush();
    }
}
