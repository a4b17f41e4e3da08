package io.railmap.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.UserError;
import io.railmap.matrix.model.Names;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.concurrent.TimeUnit;

/**
 * Talks to a railmapd's HTTP API (Vert.x web client), at {@code http://HOST:PORT} or on a Unix
 * socket {@code unix:/PATH}. One request at a time, each bounded by {@link #TIMEOUT_MS}.
 */
public final class DaemonClient implements AutoCloseable {
    /** How long one request may take, in ms. */
    public static final long TIMEOUT_MS = 10_000;

    private final String url;
    private final SocketAddress address;
    private final String basePath;
    private final Vertx vertx;
    private final WebClient client;

    /**
     * @param url {@code http://host:port[/base]} or {@code unix:/path/to.sock}
     * @throws IllegalArgumentException when the URL is neither
     */
    public DaemonClient(String url) {
        DaemonEndpoint endpoint = DaemonEndpoint.parse(url);
        this.url = url;
        this.address = endpoint.address();
        this.basePath = endpoint.basePath();
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
        client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout((int) TIMEOUT_MS));
    }

    /**
     * @param path a request path with query, such as {@code /v1/snapshot}
     * @return the response body
     * @throws DaemonUnreachable when the daemon cannot be reached or does not answer in time
     * @throws Refused          when the daemon answers an error status (4xx, 5xx), with its message
     */
    public String get(String path) {
        return send(client.request(HttpMethod.GET, address, basePath + path), null);
    }

    /**
     * @param path a request path with query
     * @param body the request body
     * @return the response body
     * @throws DaemonUnreachable when the daemon cannot be reached or does not answer in time
     * @throws Refused          when the daemon answers an error status (4xx, 5xx), with its message
     */
    public String post(String path, String body) {
        return send(client.request(HttpMethod.POST, address, basePath + path), body);
    }

    private String send(HttpRequest<Buffer> request, String body) {
        HttpResponse<Buffer> response;
        try {
            request.timeout(TIMEOUT_MS);
            response = (body == null ? request.send() : request.sendBuffer(Buffer.buffer(body)))
                    .await(TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new DaemonUnreachable("cannot reach railmapd at " + Names.escape(url, 256) + ": " + describe(e)
                    + " (is it running? start it with bin/railmapd, or pass --snapshot FILE)");
        }
        String text = response.bodyAsString();
        if (response.statusCode() >= 400) {
            throw new Refused("railmapd at " + Names.escape(url, 256) + " refused the request: " + errorOf(text, response.statusCode()),
                    response.statusCode());
        }
        return text == null ? "" : text;
    }

    static String errorOf(String body, int status) {
        try {
            JsonNode error = new ObjectMapper().readTree(body).get("error");
            if (error != null) {
                return Names.escape(error.asText(), 512);
            }
        } catch (Exception ignored) {
            // not our JSON error shape: report the status
        }
        return "HTTP " + status;
    }

    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : Names.escape(root.getMessage(), 256);
    }

    @Override
    public void close() {
        vertx.close();
    }

    /**
     * The daemon answered an error status: a {@link UserError} (exit code
     * {@link io.railmap.cli.ExitCodes#INPUT}) whose status says whether asking again may help.
     */
    public static final class Refused extends UserError {
        private static final long serialVersionUID = 1L;
        private final int status;

        Refused(String message, int status) {
            super(message);
            this.status = status;
        }

        /** @return the HTTP status, 400 to 599 */
        public int status() {
            return status;
        }

        /** @return whether the daemon was too busy to answer (503): the same request may succeed later */
        public boolean busy() {
            return status == 503;
        }
    }

    /** The daemon cannot be reached; exit code {@link io.railmap.cli.ExitCodes#DAEMON}. */
    public static final class DaemonUnreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DaemonUnreachable(String message) {
            super(message);
        }
    }
}
