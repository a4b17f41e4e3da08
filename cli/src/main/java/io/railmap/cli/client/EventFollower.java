package io.railmap.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.UserError;
import io.railmap.matrix.model.Names;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Follows a railmapd's {@code GET /v1/events}, reconnecting after a drop: after {@value #RETRY_MS} ms,
 * with {@code Last-Event-ID}, so nothing still in the daemon's backlog is missed (the daemon says when
 * something was: an event of type {@code missed}).
 *
 * <p>Source: server-sent events (WHATWG HTML, "Server-sent events"), the parts railmapd writes:
 * {@code id:}, {@code event:}, {@code data:} and comment lines, a blank line ending an event.
 * <p>Bounds: a line longer than {@value #MAX_LINE_BYTES} bytes ends the connection; at most about
 * {@value #HIGH_WATER} events wait for the reader (the stream is paused above that).
 * <p>Threads: not thread-safe; one reader calls {@link #next}.
 */
public final class EventFollower implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Milliseconds between a dropped stream and the next attempt. */
    public static final long RETRY_MS = 1_000;
    /** The longest line read. */
    static final int MAX_LINE_BYTES = 1 << 20;
    /** Events waiting for the reader above which the stream is paused. */
    static final int HIGH_WATER = 256;

    /** What {@link #next} returns. */
    public sealed interface Item permits Event, Notice, Failure {
    }

    /**
     * One event.
     *
     * @param id   its id, empty for a notice such as {@code missed}
     * @param type its type ({@code cable-lost}, {@code missed}, ...)
     * @param data its data, one line of JSON
     */
    public record Event(Optional<String> id, String type, String data) implements Item {
        /** @return the data's {@code message}, or the data itself when it has none */
        public String message() {
            try {
                JsonNode message = JSON.readTree(data).get("message");
                return message == null ? data : message.asText();
            } catch (Exception e) {
                return data;
            }
        }
    }

    /**
     * @param sentence what happened to the stream (opened, dropped, reconnected), for a person
     * @param open     true when the stream has just (re)opened: from here on no event is missed
     */
    public record Notice(String sentence, boolean open) implements Item {
    }

    /** A failure that ends following: the daemon refused the request, or was never reached. */
    private record Failure(RuntimeException error) implements Item {
    }

    private final DaemonEndpoint endpoint;
    private final Vertx vertx;
    private final Context context;
    private final HttpClient client;
    private final BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private volatile Optional<String> lastId;
    private volatile boolean connectedOnce;
    private volatile boolean closed;
    private RecordParser stream;

    /**
     * Connects at once; {@link #next} reports the outcome: first a notice that the stream is open
     * (from then on no event is missed), or a failure.
     *
     * @param url   {@code http://host:port} or {@code unix:/path}
     * @param after the id of the last event already seen, to resume after it; empty for what
     *              happens from now on
     * @throws IllegalArgumentException when the URL is neither
     */
    public EventFollower(String url, Optional<String> after) {
        this.endpoint = DaemonEndpoint.parse(url);
        this.lastId = after;
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        this.context = vertx.getOrCreateContext();
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) DaemonClient.TIMEOUT_MS));
        context.runOnContext(v -> connect());
    }

    /**
     * @param timeoutMs the longest wait, in ms
     * @return the next event or notice, empty when none came in time
     * @throws DaemonClient.DaemonUnreachable when the daemon could not be reached at the first attempt
     * @throws UserError                      when the daemon refused the stream (4xx other than 503)
     * @throws InterruptedException           when the thread is interrupted
     */
    public Optional<Item> next(long timeoutMs) throws InterruptedException {
        Item item = queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (item instanceof Failure f) {
            throw f.error();
        }
        if (queue.size() < HIGH_WATER / 2) {
            context.runOnContext(v -> {
                if (stream != null) {
                    stream.resume();
                }
            });
        }
        return Optional.ofNullable(item);
    }

    private void connect() {
        if (closed) {
            return;
        }
        // HTTP/1.1 needs a Host header; a Unix socket has no host of its own
        boolean socket = endpoint.address().isDomainSocket();
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setServer(endpoint.address())
                .setHost(socket ? "localhost" : endpoint.address().host()).setPort(socket ? 80 : endpoint.address().port())
                .setURI(endpoint.basePath() + "/v1/events").putHeader("accept", "text/event-stream");
        lastId.ifPresent(id -> request.putHeader("last-event-id", id));
        client.request(request).compose(r -> r.send()).onComplete(result -> {
            if (result.failed()) {
                dropped("cannot reach railmapd at " + endpoint.url() + ": " + DaemonClient.describe(result.cause()), true);
            } else {
                opened(result.result());
            }
        });
    }

    private void opened(HttpClientResponse response) {
        if (response.statusCode() != 200) {
            response.body().onComplete(body -> {
                String text = body.succeeded() ? body.result().toString(StandardCharsets.UTF_8) : "";
                String why = "railmapd at " + endpoint.url() + " refused the event stream: " + DaemonClient.errorOf(text, response.statusCode());
                if (response.statusCode() == 503 || response.statusCode() >= 500) {
                    dropped(why, false);
                } else {
                    queue.add(new Failure(new UserError(why)));
                }
            });
            return;
        }
        queue.add(new Notice((connectedOnce ? "reconnected to" : "following") + " railmapd at " + endpoint.url()
                + lastId.map(id -> ", resuming after " + id).orElse(""), true));
        connectedOnce = true;
        SseParser parser = new SseParser(event -> {
            event.id().ifPresent(id -> lastId = Optional.of(id));
            queue.add(event);
            if (queue.size() >= HIGH_WATER) {
                stream.pause();
            }
        });
        stream = RecordParser.newDelimited("\n", response).maxRecordSize(MAX_LINE_BYTES);
        stream.handler(line -> parser.line(line.toString(StandardCharsets.UTF_8)));
        stream.exceptionHandler(e -> {
            response.request().connection().close();
            dropped("the event stream from " + endpoint.url() + " broke: " + DaemonClient.describe(e), false);
        });
        stream.endHandler(v -> dropped("railmapd at " + endpoint.url() + " ended the event stream", false));
    }

    /** A stream that could not start or ended: reconnect, unless the daemon was never reached. */
    private void dropped(String why, boolean unreachable) {
        stream = null;
        if (closed) {
            return;
        }
        if (unreachable && !connectedOnce) {
            queue.add(new Failure(new DaemonClient.DaemonUnreachable(why + " (is it running? start it with bin/railmapd)")));
            return;
        }
        queue.add(new Notice(Names.escape(why, 512) + "; trying again in " + RETRY_MS + " ms", false));
        vertx.setTimer(RETRY_MS, id -> connect());
    }

    @Override
    public void close() {
        closed = true;
        vertx.close();
    }
}
