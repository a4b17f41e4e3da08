package io.railmap.daemon.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The limits Vert.x has no option for: open connections per listener, and the deadlines of a
 * connection ({@link HttpLimits}). Each connection is always under one deadline:
 * <pre>
 * opened, or answered  ──complete headers within headerTimeoutMs──▶  request  ──answer within answerTimeoutMs──▶  answered
 * </pre>
 * A connection that misses one is closed (a request past its answer deadline is answered 503 first
 * when nothing of its answer was sent yet). A listener with {@link HttpLimits#maxConnections()}
 * open makes room for a new connection by closing the one that has waited longest for a request's
 * headers (one that never completed a request before an idle kept-alive one), so that a client
 * holding every slot with half-sent requests cannot keep the others out; when every open connection
 * has a request being answered, the new one is closed instead.
 *
 * <p>Every close for a bound is counted in {@value #CLOSED}, tagged {@code reason}
 * ({@link Reason#tag()}), and logged once per reason, except {@link Reason#IDLE}: an idle
 * kept-alive connection given back is routine.
 *
 * <p>Confined to the API verticle's event loop: its listeners' connection handlers, the router and
 * the timers it sets all run there.
 */
final class ConnectionGuard {
    private static final Logger LOG = System.getLogger(ConnectionGuard.class.getName());
    /** Counter of connections closed for a bound, tagged {@code reason}. */
    static final String CLOSED = "railmap.api.connections.closed";

    /** Why the guard closed a connection; the counter's {@code reason} tag. */
    enum Reason {
        /** The listener had {@link HttpLimits#maxConnections()} open, each with a request being answered. */
        CAP("cap"),
        /** Waiting longest for request headers when a new connection came at the cap. */
        EVICTED("evicted"),
        /** No complete request headers within the header timeout of opening. */
        HEADERS("headers-timeout"),
        /** No further request within the header timeout of the previous answer. */
        IDLE("idle"),
        /** No answer within the answer timeout of the request's headers. */
        ANSWER("answer-timeout");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        /** @return the metric tag value */
        String tag() {
            return tag;
        }
    }

    private final Vertx vertx;
    private final HttpLimits limits;
    private final Map<Reason, Counter> closed = new EnumMap<>(Reason.class);
    private final Map<HttpConnection, Watch> watches = new IdentityHashMap<>();
    private final Set<Reason> logged = EnumSet.noneOf(Reason.class);
    /** Orders connections by when they began to wait for a request. */
    private long waits;

    /**
     * @param vertx    the Vert.x of the API verticle (its timers)
     * @param limits   the bounds
     * @param registry where {@value #CLOSED} is registered
     */
    ConnectionGuard(Vertx vertx, HttpLimits limits, MeterRegistry registry) {
        this.vertx = vertx;
        this.limits = limits;
        for (Reason r : Reason.values()) {
            closed.put(r, Counter.builder(CLOSED).tag("reason", r.tag())
                    .description("API connections closed for a bound: too many open, headers or answer too slow, idle").register(registry));
        }
    }

    /**
     * @param name the listener as logs name it, e.g. {@code http://127.0.0.1:7246}
     * @return the connection handler for one listener's server: holds its connections to
     *         {@link HttpLimits#maxConnections()} and puts each under the header deadline
     */
    Handler<HttpConnection> listener(String name) {
        Listener listener = new Listener(name);
        return listener::connected;
    }

    /** A request's headers arrived: its connection is now under the answer deadline. */
    void requestStarted(HttpServerRequest request) {
        Watch watch = watches.get(request.connection());
        if (watch != null) {
            watch.started(request);
        }
    }

    /**
     * A request's answer is a stream that stays open ({@link EventStream}): its connection is under
     * no deadline until it closes; the stream's keep-alive writes find a client that is gone.
     */
    void streaming(HttpServerRequest request) {
        Watch watch = watches.get(request.connection());
        if (watch != null && watch.request == request) {
            watch.cancel();
        }
    }

    /** A request was answered (or its answer failed): its connection is back under the header deadline. */
    void answered(HttpServerRequest request) {
        Watch watch = watches.get(request.connection());
        if (watch != null && watch.request == request) {
            watch.awaitRequest(Reason.IDLE);
        }
    }

    private void close(HttpConnection conn, Reason reason, Supplier<String> firstTime) {
        closed.get(reason).increment();
        if (reason != Reason.IDLE && logged.add(reason)) {
            LOG.log(Level.WARNING, firstTime);
        }
        conn.close();
    }

    /** One listener's open connections. */
    private final class Listener {
        private final String name;
        private int open;

        Listener(String name) {
            this.name = name;
        }

        void connected(HttpConnection conn) {
            if (open >= limits.maxConnections() && !evictOne()) {
                close(conn, Reason.CAP, () -> "API " + name + ": " + limits.maxConnections() + " connections open, each with a request "
                        + "being answered; a connection beyond that is closed at once (counted in "
                        + "railmap_api_connections_closed_total{reason=\"cap\"}; logged once)");
                return;
            }
            open++;
            Watch watch = new Watch(this, conn);
            watches.put(conn, watch);
            conn.closeHandler(v -> watch.release());
            watch.awaitRequest(Reason.HEADERS);
        }

        /**
         * @return whether a connection waiting for request headers was closed to make room: the one
         *         waiting longest among those that never completed a request, else among the idle
         *         ones (a kept-alive connection a client may be about to reuse goes last)
         */
        private boolean evictOne() {
            Watch oldest = null;
            for (Watch w : watches.values()) {
                if (w.listener == this && w.request == null && (oldest == null || w.answered < oldest.answered
                        || w.answered == oldest.answered && w.waitingSince < oldest.waitingSince)) {
                    oldest = w;
                }
            }
            if (oldest == null) {
                return false;
            }
            oldest.release();
            close(oldest.conn, Reason.EVICTED, () -> "API " + name + ": " + limits.maxConnections() + " connections open, the most "
                    + "allowed; the one waiting longest for request headers is closed to make room for a new one (counted in "
                    + "railmap_api_connections_closed_total{reason=\"evicted\"}; logged once)");
            return true;
        }
    }

    /** One connection and the one deadline it is under. */
    private final class Watch {
        private final Listener listener;
        private final HttpConnection conn;
        private long timer = -1;
        private long waitingSince;
        /** 0 until a request on the connection was answered, then 1. */
        private int answered;
        private HttpServerRequest request;
        private boolean released;

        Watch(Listener listener, HttpConnection conn) {
            this.listener = listener;
            this.conn = conn;
        }

        void awaitRequest(Reason reason) {
            cancel();
            if (request != null) {
                answered = 1;
            }
            request = null;
            waitingSince = ++waits;
            timer = vertx.setTimer(limits.headerTimeoutMs(), id -> close(conn, reason, () -> "API " + listener.name + ": a connection sent "
                    + "no complete request headers within " + limits.headerTimeoutMs() + " ms and was closed; further ones are only "
                    + "counted (railmap_api_connections_closed_total{reason=\"" + reason.tag() + "\"})"));
        }

        void started(HttpServerRequest r) {
            cancel();
            request = r;
            timer = vertx.setTimer(limits.answerTimeoutMs(), id -> tooSlow(r));
        }

        private void tooSlow(HttpServerRequest r) {
            HttpServerResponse response = r.response();
            if (!response.ended() && !response.headWritten() && !response.closed()) {
                ErrorReplies.send(response.putHeader("connection", "close"), 503, ErrorReplies.error(ErrorReplies.quoted(r.method().name())
                        + " " + ErrorReplies.quoted(r.path()) + " was not answered within " + limits.answerTimeoutMs()
                        + " ms (its body arrived too slowly, or computing the answer took too long); try again"));
            }
            close(conn, Reason.ANSWER, () -> "API " + listener.name + ": a request was not answered within " + limits.answerTimeoutMs()
                    + " ms; its connection was closed; further ones are only counted "
                    + "(railmap_api_connections_closed_total{reason=\"answer-timeout\"})");
        }

        /** Gives the connection's slot back, once: when it closes, or when it is evicted. */
        void release() {
            if (!released) {
                released = true;
                listener.open--;
                cancel();
                watches.remove(conn);
            }
        }

        private void cancel() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }
}
