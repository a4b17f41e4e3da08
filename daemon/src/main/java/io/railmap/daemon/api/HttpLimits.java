package io.railmap.daemon.api;

import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.TimeUnit;

/**
 * How much the HTTP API lets a client hold: the bounds that keep a careless or hostile client from
 * growing the daemon's memory or tying up its connections for good. The API's requests are a short
 * line and a few headers (a 64-rank {@code /v1/matrix} query with {@code ip=} for every rank is
 * about 3 KB); only {@code POST /v1/check} has a body, a devices file of at most a few hundred KB.
 *
 * @param maxConnections   open connections per listener (TCP, Unix socket); a connection beyond
 *                         this is closed at once, counted and logged once. Default
 *                         {@value #DEFAULT_MAX_CONNECTIONS}: the CLI, a lab and a metrics scraper
 *                         use a handful; each open connection costs up to about 20 KB (headers
 *                         being read, buffers), so the bound holds connections under about 1.3 MB
 * @param maxInitialLine   bytes of the request line ({@code GET /v1/matrix?... HTTP/1.1}); a longer
 *                         one is answered 414. Default {@value #DEFAULT_MAX_INITIAL_LINE}
 * @param maxHeaderBytes   bytes of all request headers together; more is answered 431. Default
 *                         {@value #DEFAULT_MAX_HEADER_BYTES} (Vert.x's and Netty's own default)
 * @param maxBodyBytes     bytes of a request body; more is answered 413 without reading it (when
 *                         the length is declared) or as soon as it is exceeded. Default
 *                         {@value #DEFAULT_MAX_BODY_BYTES} (1 MiB). Bodies are held in memory only,
 *                         never written to disk
 * @param headerTimeoutMs  a connection that has not sent a request's complete headers this long
 *                         after it opened, or after its previous answer, is closed. Default
 *                         {@value #DEFAULT_HEADER_TIMEOUT_MS} ms: a client on the management network
 *                         sends its headers in one packet; a client that trickles them ("slowloris")
 *                         or keeps an unused connection idle gives the slot back within this time.
 *                         Answers say {@code Keep-Alive: timeout=N} with N one second less, so that
 *                         clients drop an idle connection before the daemon does
 * @param answerTimeoutMs  a request not answered this long after its headers (a body trickling in,
 *                         or a computation that takes too long) is answered 503 and its connection
 *                         closed. Default {@value #DEFAULT_ANSWER_TIMEOUT_MS} ms, far above what an answer
 *                         takes to compute (a 16-node ring order takes milliseconds, docs/benchmarks.md)
 * @param idleTimeoutS     a connection on which no byte moved either way for this long is closed
 *                         (Vert.x's own idle timeout): a last net beneath the two deadlines, which
 *                         already cover every state of a connection, so it is longer than both.
 *                         Default {@value #DEFAULT_IDLE_TIMEOUT_S} s
 * @param maxPendingWork   requests being computed off the event loop (matrices, checks, the member
 *                         list) at once, running or queued for a worker; beyond this a request is
 *                         answered 503 at once instead of queueing without bound. Default
 *                         {@value #DEFAULT_MAX_PENDING_WORK}
 */
public record HttpLimits(int maxConnections, int maxInitialLine, int maxHeaderBytes, int maxBodyBytes, long headerTimeoutMs,
                         long answerTimeoutMs, int idleTimeoutS, int maxPendingWork) {
    /** Default open connections per listener. */
    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    /** Default request line limit, in bytes. */
    public static final int DEFAULT_MAX_INITIAL_LINE = 8192;
    /** Default header limit, in bytes. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 8192;
    /** Default body limit, in bytes (1 MiB). */
    public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;
    /** Default time for a request's headers, in ms. */
    public static final long DEFAULT_HEADER_TIMEOUT_MS = 5_000;
    /** Default time from a request's headers to its answer, in ms. */
    public static final long DEFAULT_ANSWER_TIMEOUT_MS = 30_000;
    /** Default idle timeout, in s. */
    public static final int DEFAULT_IDLE_TIMEOUT_S = 60;
    /** Default computations at once. */
    public static final int DEFAULT_MAX_PENDING_WORK = 16;

    /** The defaults above. */
    public static final HttpLimits DEFAULTS = new HttpLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_INITIAL_LINE, DEFAULT_MAX_HEADER_BYTES,
            DEFAULT_MAX_BODY_BYTES, DEFAULT_HEADER_TIMEOUT_MS, DEFAULT_ANSWER_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_PENDING_WORK);

    /** @throws IllegalArgumentException naming the limit when one is below 1 (timeouts: below 1 s for the idle timeout, 100 ms for the others) */
    public HttpLimits {
        positive("maxConnections", maxConnections);
        positive("maxInitialLine", maxInitialLine);
        positive("maxHeaderBytes", maxHeaderBytes);
        positive("maxBodyBytes", maxBodyBytes);
        positive("maxPendingWork", maxPendingWork);
        positive("idleTimeoutS", idleTimeoutS);
        if (headerTimeoutMs < 100 || answerTimeoutMs < 100) {
            throw new IllegalArgumentException("HTTP header and answer timeouts must be at least 100 ms, not " + headerTimeoutMs + " and "
                    + answerTimeoutMs);
        }
    }

    private static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException("HTTP limit " + name + " must be at least 1, not " + value);
        }
    }

    /** @return a copy with this many connections per listener */
    public HttpLimits withMaxConnections(int n) {
        return new HttpLimits(n, maxInitialLine, maxHeaderBytes, maxBodyBytes, headerTimeoutMs, answerTimeoutMs, idleTimeoutS, maxPendingWork);
    }

    /** @return a copy with these header and answer timeouts, in ms */
    public HttpLimits withTimeouts(long headerMs, long answerMs) {
        return new HttpLimits(maxConnections, maxInitialLine, maxHeaderBytes, maxBodyBytes, headerMs, answerMs, idleTimeoutS, maxPendingWork);
    }

    /**
     * @return the server options that carry the limits Vert.x itself enforces: the request line,
     *         the headers, the idle timeout; HTTP/1.1 only (no cleartext HTTP/2, whose streams
     *         would escape the per-connection deadlines), no compression
     */
    HttpServerOptions serverOptions() {
        return new HttpServerOptions()
                .setMaxInitialLineLength(maxInitialLine)
                .setMaxHeaderSize(maxHeaderBytes)
                .setIdleTimeout(idleTimeoutS)
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setHttp2ClearTextEnabled(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false);
    }

    /** @return the {@code Keep-Alive} header value: the idle time a client may keep a connection, in whole seconds */
    String keepAlive() {
        return "timeout=" + Math.max(0, headerTimeoutMs / 1000 - 1);
    }
}
