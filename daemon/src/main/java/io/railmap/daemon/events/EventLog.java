package io.railmap.daemon.events;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.change.Change;
import io.railmap.matrix.codec.JsonText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers changes as events and keeps the last {@link #backlog()} of them, so that a stream that
 * reconnects with {@code Last-Event-ID} misses nothing still held, and is told when it did.
 *
 * <p>An event id is {@code BOOT-SEQ}: BOOT is 8 hex digits drawn when the daemon starts, SEQ counts
 * from 1 and only grows. An id of another BOOT (the daemon restarted) or older than the backlog
 * cannot be resumed: the stream starts with a {@code missed} notice instead. State is bounded: the
 * backlog, and at most {@link #maxStreams()} streams (each stream bounds its own send queue), shared
 * between peers by {@link StreamShares}: at most {@link #maxStreamsPerPeer()} per peer.
 * Thread-safe; {@link #publish} calls the streams' listeners in order, under the log's lock, so a
 * listener must not block (the API's hands the event to its connection's event loop).
 */
public final class EventLog {
    /** Events kept for streams that reconnect. */
    public static final int DEFAULT_BACKLOG = 1_024;
    /** Streams open at once. */
    public static final int DEFAULT_MAX_STREAMS = 16;
    /**
     * Streams of one peer at once: half the slots, so that one local user or address leaves 8 to the
     * others, while a node's watchers ({@code matrix} and {@code env --watch}), a {@code railmap
     * watch} and a few browser tabs of the topology page fit in one user's share.
     */
    public static final int DEFAULT_MAX_STREAMS_PER_PEER = 8;
    private static final Pattern ID = Pattern.compile("([0-9a-f]{8})-([1-9][0-9]{0,17})");

    private final String boot;
    private final int backlog;
    private final int maxStreams;
    private final int maxStreamsPerPeer;
    private final ArrayDeque<Event> held = new ArrayDeque<>();
    private final List<Stream> streams = new ArrayList<>();
    private long last;

    /**
     * One event.
     *
     * @param id     {@code BOOT-SEQ}
     * @param seq    SEQ
     * @param change what changed
     */
    public record Event(String id, long seq, Change change) {
        /** @return one line of JSON: {@code {"id", "type", "subjects": [...], "message"}} */
        public String json() {
            ObjectNode o = JsonText.object();
            o.put("id", id);
            o.put("type", change.type().externalName());
            ArrayNode subjects = o.putArray("subjects");
            change.subjects().forEach(subjects::add);
            o.put("message", change.message());
            return o.toString();
        }
    }

    /**
     * What a new stream starts with.
     *
     * @param replay the held events after its {@code Last-Event-ID}, oldest first
     * @param missed a sentence when events it asked for are no longer held
     * @param close  ends the stream's subscription (idempotent)
     */
    public record Subscription(List<Event> replay, Optional<String> missed, Runnable close) {
    }

    /**
     * A log with {@value #DEFAULT_BACKLOG} events held, {@value #DEFAULT_MAX_STREAMS} streams,
     * {@value #DEFAULT_MAX_STREAMS_PER_PEER} per peer.
     */
    public EventLog() {
        this(DEFAULT_BACKLOG, DEFAULT_MAX_STREAMS, DEFAULT_MAX_STREAMS_PER_PEER);
    }

    /**
     * @param backlog           events held, at least 1
     * @param maxStreams        streams at once, at least 1
     * @param maxStreamsPerPeer streams of one peer at once, 1 to {@code maxStreams}
     * @throws IllegalArgumentException naming the bound that is out of range
     */
    public EventLog(int backlog, int maxStreams, int maxStreamsPerPeer) {
        if (backlog < 1 || maxStreams < 1 || maxStreamsPerPeer < 1 || maxStreamsPerPeer > maxStreams) {
            throw new IllegalArgumentException("backlog and streams must be at least 1, and streams per peer 1 to the streams, not "
                    + backlog + ", " + maxStreams + " and " + maxStreamsPerPeer);
        }
        this.boot = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        this.backlog = backlog;
        this.maxStreams = maxStreams;
        this.maxStreamsPerPeer = maxStreamsPerPeer;
    }

    /** @return events held for streams that reconnect */
    public int backlog() {
        return backlog;
    }

    /** @return streams open at once */
    public int maxStreams() {
        return maxStreams;
    }

    /** @return streams of one peer open at once */
    public int maxStreamsPerPeer() {
        return maxStreamsPerPeer;
    }

    /** @return the streams open now */
    public synchronized int streams() {
        return streams.size();
    }

    /** @return the peer of each open stream ({@link #subscribe}), oldest first */
    public synchronized List<String> peers() {
        return streams.stream().map(s -> s.peer).toList();
    }

    /** @return the id of the last event, or empty before the first */
    public synchronized Optional<String> lastId() {
        return last == 0 ? Optional.empty() : Optional.of(boot + "-" + last);
    }

    /** Numbers the changes, keeps them, and hands each to every stream, in order. */
    public synchronized void publish(List<Change> changes) {
        for (Change change : changes) {
            last++;
            Event event = new Event(boot + "-" + last, last, change);
            if (held.size() == backlog) {
                held.removeFirst();
            }
            held.addLast(event);
            for (Stream stream : List.copyOf(streams)) {
                stream.listener.accept(event);
            }
        }
    }

    /**
     * @param lastEventId the id of the last event the client saw ({@code Last-Event-ID}), or empty
     *                    for a new client, which gets only what happens from now on
     * @param peer        who asks ({@code uid 1000}, {@code 10.0.0.7}, ...): the key of {@link StreamShares}
     * @param listener    gets each later event, on the publishing thread, under the log's lock
     * @param replaced    called (on the subscribing thread, under the log's lock; it must not block)
     *                    with a sentence when a later subscription takes this one's place; the
     *                    subscription is closed by then
     * @return the events to send first
     * @throws IllegalArgumentException when {@code lastEventId} is not an id this log writes
     * @throws IllegalStateException    when {@link StreamShares} refuses the peer a stream
     */
    public synchronized Subscription subscribe(Optional<String> lastEventId, String peer, Consumer<Event> listener,
                                               Consumer<String> replaced) {
        Optional<String> missed = Optional.empty();
        List<Event> replay = List.of();
        if (lastEventId.isPresent()) {
            Matcher m = ID.matcher(lastEventId.get());
            if (!m.matches()) {
                throw new IllegalArgumentException("Last-Event-ID is not an event id of railmapd (BOOT-SEQ, e.g. 1f2e3d4c-42): "
                        + "leave it out to start from now");
            }
            long seq = Long.parseLong(m.group(2));
            long oldest = held.isEmpty() ? last + 1 : held.getFirst().seq();
            if (!m.group(1).equals(boot)) {
                missed = Optional.of("this daemon restarted since event " + lastEventId.get() + ": what happened before "
                        + "is not held; read GET /v1/snapshot again");
            } else if (seq > last) {
                throw new IllegalArgumentException("Last-Event-ID " + lastEventId.get() + " is ahead of the last event ("
                        + lastId().orElse("none") + "): leave it out to start from now");
            } else if (seq < oldest - 1) {
                missed = Optional.of((oldest - 1 - seq) + " events after " + lastEventId.get() + " are no longer held (the backlog keeps "
                        + backlog + "): read GET /v1/snapshot again");
                replay = List.copyOf(held);
            } else {
                replay = held.stream().filter(e -> e.seq() > seq).toList();
            }
        }
        StreamShares.Decision decision = StreamShares.decide(streams.stream().map(s -> s.peer).toList(), peer, maxStreams, maxStreamsPerPeer);
        if (decision instanceof StreamShares.Refuse refuse) {
            throw new IllegalStateException(refuse.why());
        }
        if (decision instanceof StreamShares.Replace replace) {
            Stream old = streams.remove(replace.index());
            old.replaced.accept(replace.why());
        }
        Stream stream = new Stream(peer, listener, replaced);
        streams.add(stream);
        return new Subscription(replay, missed, () -> close(stream));
    }

    private synchronized void close(Stream stream) {
        streams.remove(stream);
    }

    /** Identity matters: one subscription, one entry. */
    private static final class Stream {
        final String peer;
        final Consumer<Event> listener;
        final Consumer<String> replaced;

        Stream(String peer, Consumer<Event> listener, Consumer<String> replaced) {
            this.peer = peer;
            this.listener = listener;
            this.replaced = replaced;
        }
    }
}
