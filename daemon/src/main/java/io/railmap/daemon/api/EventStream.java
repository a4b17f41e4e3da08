package io.railmap.daemon.api;

import io.railmap.daemon.events.EventLog;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code GET /v1/events}: the daemon's changes as server-sent events (WHATWG HTML, "Server-sent
 * events"; what a browser's {@code EventSource} reads). Each event is
 * <pre>
 * id: 1f2e3d4c-42
 * event: cable-lost
 * data: {"id": "1f2e3d4c-42", "type": "cable-lost", "subjects": ["a:en6", "b:en7"], "message": "cable a:en6–b:en7 lost"}
 * </pre>
 * (data on one line; types are {@link io.railmap.matrix.change.ChangeType}'s external names). A client
 * that reconnects with {@code Last-Event-ID} first gets the held events after it; when some are no
 * longer held (or the daemon restarted) the stream starts with an {@code event: missed} whose data is
 * {@code {"type": "missed", "message": "..."}}. A new client gets what happens from now on.
 *
 * <p>Bounds: {@link EventLog#maxStreams()} streams, shared between peers ({@link StreamPeer}: a
 * local user, a remote address) so that none takes them all (then 503, or the peer's oldest stream
 * is closed with a comment saying why); a stream whose client does not read
 * (its connection's send queue is full) is closed, and it can resume with {@code Last-Event-ID}; a
 * comment line every {@code keepAliveMs} keeps proxies from closing a quiet stream and finds a dead
 * client. The stream is under no answer deadline ({@link ConnectionGuard#streaming}).
 */
final class EventStream {
    /** Milliseconds between keep-alive comments. */
    static final long DEFAULT_KEEP_ALIVE_MS = 15_000;

    private final Vertx vertx;
    private final EventLog events;
    private final ConnectionGuard guard;
    private final long keepAliveMs;

    EventStream(Vertx vertx, EventLog events, ConnectionGuard guard, long keepAliveMs) {
        this.vertx = vertx;
        this.events = events;
        this.guard = guard;
        this.keepAliveMs = keepAliveMs;
    }

    /** Starts a stream for a request whose query was checked; on the request's event loop. */
    void open(RoutingContext ctx) {
        Context loop = vertx.getOrCreateContext();
        Optional<String> last = Optional.ofNullable(ctx.request().getHeader("last-event-id")).filter(id -> !id.isEmpty());
        Open stream = new Open(ctx);
        try {
            // the listener runs on this loop after open() returns, so it sees the subscription set below
            stream.subscription = events.subscribe(last, StreamPeer.of(ctx.request()), event -> loop.runOnContext(v -> stream.send(frame(event))),
                    why -> loop.runOnContext(v -> stream.replaced(why)));
        } catch (IllegalArgumentException e) {
            ctx.fail(400, e);
            return;
        } catch (IllegalStateException e) {
            ctx.response().putHeader("retry-after", "5");
            ctx.fail(503, e);
            return;
        }
        guard.streaming(ctx.request());
        stream.keepAlive = vertx.setPeriodic(keepAliveMs, id -> stream.send(": keep-alive\n\n"));
        HttpServerResponse response = ctx.response();
        response.closeHandler(v -> stream.end());
        response.exceptionHandler(e -> stream.end());
        response.setChunked(true).setStatusCode(200)
                .putHeader("content-type", "text/event-stream; charset=utf-8")
                .putHeader("cache-control", "no-store")
                .putHeader("x-accel-buffering", "no");
        StringBuilder first = new StringBuilder("retry: 1000\n\n");
        stream.subscription.missed().ifPresent(sentence -> {
            first.append("event: missed\ndata: ").append(Replies.line(new Replies.EventData(null, "missed", null, sentence))).append("\n\n");
        });
        stream.subscription.replay().forEach(event -> first.append(frame(event)));
        stream.send(first.toString());
    }

    /** One client's stream; its methods run on the request's event loop (end also from a close). */
    private final class Open {
        private final RoutingContext ctx;
        private final AtomicBoolean open = new AtomicBoolean(true);
        private EventLog.Subscription subscription;
        private long keepAlive = -1;

        Open(RoutingContext ctx) {
            this.ctx = ctx;
        }

        /**
         * Writes, or ends a stream whose client does not read: memory per stream stays bounded, and its
         * place among the {@link EventLog#maxStreams()} is freed at once. The connection is reset, not
         * closed gracefully: a graceful close would wait for an answer that never ends.
         */
        void send(String text) {
            HttpServerResponse response = ctx.response();
            if (!open.get() || response.ended() || response.closed()) {
                return;
            }
            if (response.writeQueueFull()) {
                end();
                response.reset();
                return;
            }
            response.write(text);
        }

        /**
         * Ends a stream whose place another took ({@link EventLog#subscribe}): a comment saying why, then
         * the end of the answer, so that its client reconnects (with {@code Last-Event-ID}).
         */
        void replaced(String why) {
            send(": closed: " + why + "\n\n");
            end();
            HttpServerResponse response = ctx.response();
            if (!response.ended() && !response.closed()) {
                response.end();
            }
        }

        /** Frees the stream's subscription and keep-alive timer; idempotent. */
        void end() {
            if (open.getAndSet(false)) {
                subscription.close().run();
                vertx.cancelTimer(keepAlive);
            }
        }
    }

    private static String frame(EventLog.Event event) {
        return "id: " + event.id() + "\nevent: " + event.change().type().externalName() + "\ndata: " + event.json() + "\n\n";
    }
}
