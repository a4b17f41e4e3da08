package io.railmap.daemon.api;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Agreement;
import io.railmap.daemon.cluster.ClusterQueries;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.EventLog;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.FileCheck;
import io.railmap.matrix.check.UnknownHostsException;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.draw.TopologySvg;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.job.JobCheck;
import io.railmap.matrix.job.JobsJson;
import io.railmap.matrix.library.NodeEnv;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.topology.Topology;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The daemon's HTTP API. Routes:
 * <pre>
 * GET  /healthz                       {@link Replies.Health}
 * GET  /v1/record                     this node's record (snapshot format's record)
 * GET  /v1/snapshot                   every record this daemon knows (railmap-snapshot)
 * GET  /v1/members                    the cluster's members ({@link Replies.Members})
 * GET  /v1/agreement?hosts=a,b         whether every member holds this daemon's records ({@link Replies.AgreementReply})
 * GET  /v1/matrix?hosts=a,b&amp;format=…  the plan in a format (see {@link MatrixQuery})
 * GET  /v1/env?node=a&amp;for=nccl        one node's library settings (see {@link EnvQuery})
 * GET  /v1/events                     the changes as server-sent events (see {@link EventStream})
 * GET  /v1/jobs                       the running jobs and their verdicts ({@link JobsJson})
 * GET  /v1/topology.svg               the picture of the cables ({@link TopologySvg}), as railmap draw writes it
 * GET  /                              the topology page (HTML; its script and style under /page/, d3 under /webjars/)
 * POST /v1/check?hosts=a,b&amp;mode=…     body: a jaccl devices file or an mlx.launch hostfile; answer: findings JSON
 * GET  /metrics                       Micrometer, Prometheus text format
 * GET  /v1/openapi.json               this list as an OpenAPI 3.1 document ({@link ApiDocument})
 * </pre>
 * Every error answer is {@code {"error": "<sentence>"}} JSON ({@link ErrorReplies}): 400 a bad
 * request (an unknown or repeated query parameter, bad percent-encoding, a malformed value or body),
 * 404 an unknown resource or unknown hosts ({@code "unknown": [...]}), 405 a method the resource does
 * not take, 413 a body above {@link HttpLimits#maxBodyBytes()}, 414 and 431 a request line or
 * headers above their limits, 415 a form body, 422 no ring through the hosts
 * ({@code "unplaceable": [...]}), 503 unhealthy, busy or too slow, 500 an internal error (no stack
 * trace; the log has it).
 *
 * <p>Bounds ({@link HttpLimits}): connections per listener, request line, headers and body size,
 * the header, answer and idle deadlines ({@link ConnectionGuard}), and computations at once.
 * Bodies stay in memory: nothing is ever written to disk. Planning, checking and the membership run
 * off the event loop; everything else answers on it without blocking.
 */
public final class ApiVerticle extends VerticleBase {
    private static final String JSON = ErrorReplies.JSON;

    /** Where the page's script and style are served, from the classpath's {@code railmap-page/}. */
    private static final String PAGE = "/page/";
    /** Where WebJars (d3) are served, from the classpath's {@code META-INF/resources/webjars/}. */
    private static final String WEBJARS = "/webjars/";

    /** The media type of plain text answers ({@code /v1/env} without {@code format=json}). */
    static final String TEXT = "text/plain; charset=utf-8";
    /** The media type of {@code /v1/topology.svg}. */
    static final String SVG = "image/svg+xml; charset=utf-8";
    /** The media type of {@code /metrics}: Prometheus' text format. */
    static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * The resources and the one method each takes, in the order error answers and the OpenAPI document
     * ({@link ApiDocument}) list them.
     */
    static final List<Route> ROUTES = List.of(new Route(HttpMethod.GET, "/healthz"), new Route(HttpMethod.GET, "/v1/record"),
            new Route(HttpMethod.GET, "/v1/snapshot"), new Route(HttpMethod.GET, "/v1/members"), new Route(HttpMethod.GET, "/v1/agreement"),
            new Route(HttpMethod.GET, "/v1/matrix"), new Route(HttpMethod.GET, "/v1/env"), new Route(HttpMethod.GET, "/v1/events"),
            new Route(HttpMethod.GET, "/v1/jobs"), new Route(HttpMethod.GET, "/v1/topology.svg"), new Route(HttpMethod.POST, "/v1/check"), new Route(HttpMethod.GET, "/metrics"),
            new Route(HttpMethod.GET, ApiDocument.PATH), new Route(HttpMethod.GET, "/"), new Route(HttpMethod.GET, PAGE + "*"),
            new Route(HttpMethod.GET, WEBJARS + "*"));

    /**
     * One resource and the method it takes.
     *
     * @param method the method
     * @param path   the path; ending in {@code *}, every path below it
     */
    record Route(HttpMethod method, String path) {
        /** @return true when a request for {@code requested} is this resource ({@code /page/*} takes every path under /page/) */
        boolean takes(String requested) {
            return path.endsWith("*") ? requested.startsWith(path.substring(0, path.length() - 1)) : path.equals(requested);
        }

        @Override
        public String toString() {
            return method.name() + " " + path;
        }
    }

    /** {@link ApiDocument}'s document, written once. */
    private static final String DOCUMENT = JsonText.pretty(ApiDocument.of(ROUTES));

    private final Engine engine;
    private final ClusterQueries cluster;
    private final EventLog events;
    private final Supplier<List<String>> problems;
    private final PrometheusMeterRegistry registry;
    private final HttpLimits limits;
    private final String host;
    private final int port;
    private final Optional<Path> socket;
    private ConnectionGuard guard;
    private int pendingWork;
    private HttpServer server;
    private Router router;

    /**
     * The API with {@link HttpLimits#DEFAULTS} and a health that is always good.
     *
     * @see #ApiVerticle(Engine, ClusterQueries, EventLog, Supplier, PrometheusMeterRegistry, HttpLimits, String, int, Optional)
     */
    public ApiVerticle(Engine engine, ClusterQueries cluster, PrometheusMeterRegistry registry, String host, int port,
                       Optional<Path> socket) {
        this(engine, cluster, new EventLog(), List::of, registry, HttpLimits.DEFAULTS, host, port, socket);
    }

    /**
     * @param engine     what the daemon knows
     * @param cluster    the cluster member's view and agreement (plain queries the member answers)
     * @param events     the changes {@code /v1/events} streams
     * @param problems   what is stuck ({@link HealthWatch#problems()}); {@code /healthz} is 503 while
     *                   it is not empty. Called on the event loop: it must not block
     * @param registry   the metrics registry scraped by {@code /metrics}; the API's own counters go
     *                   there too
     * @param limits     the bounds on clients
     * @param host       the address to bind ({@code 127.0.0.1} by default in the daemon)
     * @param port       the TCP port to bind; 0 picks a free one ({@link #actualPort()})
     * @param socket     a Unix domain socket to serve on as well; nothing may be at that path
     *                   ({@link ApiSocket#claim} makes it so)
     */
    public ApiVerticle(Engine engine, ClusterQueries cluster, EventLog events, Supplier<List<String>> problems,
                       PrometheusMeterRegistry registry, HttpLimits limits, String host, int port, Optional<Path> socket) {
        this.engine = engine;
        this.cluster = cluster;
        this.events = events;
        this.problems = problems;
        this.registry = registry;
        this.limits = limits;
        this.host = host;
        this.port = port;
        this.socket = socket;
    }

    /**
     * Binds the TCP listener, then the Unix socket if any.
     *
     * @return fails with an {@link IllegalStateException} naming the listener that could not
     *         listen; when its address is taken, the sentence says so and what to do
     */
    @Override
    public Future<?> start() {
        guard = new ConnectionGuard(vertx, limits, registry);
        router = buildRouter();
        String tcpName = "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        server = server(router, tcpName);
        Future<?> tcp = server.listen(port, host).recover(e -> listenFailure("API TCP " + tcpName.substring("http://".length()),
                "choose another --api ADDR:PORT", e));
        if (socket.isEmpty()) {
            return tcp;
        }
        return tcp.compose(bound -> server(router, "unix:" + socket.get())
                .listen(SocketAddress.domainSocketAddress(socket.get().toString()))
                .recover(e -> listenFailure("API socket " + socket.get(), "choose another --api-socket PATH", e)));
    }

    /** @return a failed future whose message names the listener and, when it is taken, what to do */
    private static <T> Future<T> listenFailure(String listener, String remedy, Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof java.net.BindException) {
            return Future.failedFuture(new IllegalStateException(listener + " is in use (" + root.getMessage()
                    + "): another railmapd or another program listens there; stop it, or " + remedy, e));
        }
        return Future.failedFuture(new IllegalStateException(listener + ": cannot listen (" + root.getMessage() + ")", e));
    }

    private HttpServer server(Router router, String name) {
        return vertx.createHttpServer(limits.serverOptions())
                .connectionHandler(guard.listener(name))
                .invalidRequestHandler(ErrorReplies.invalidRequest(limits))
                .requestHandler(router);
    }

    private Router buildRouter() {
        Router router = Router.router(vertx);
        router.route().handler(ctx -> {
            guard.requestStarted(ctx.request());
            ctx.addEndHandler(done -> guard.answered(ctx.request()));
            ctx.response().putHeader("keep-alive", limits.keepAlive());
            ctx.next();
        });
        router.get("/healthz").handler(ctx -> onLoop(ctx, this::health));
        router.get("/v1/record").handler(ctx -> onLoop(ctx, q -> new Reply(200, JSON, SnapshotCodec.write(engine.record()))));
        router.get("/v1/snapshot").handler(ctx -> onLoop(ctx, q -> new Reply(200, JSON, SnapshotCodec.write(engine.snapshot()))));
        // off the event loop: the membership waits for the cluster's lock while a record is taken
        router.get("/v1/members").handler(ctx -> offLoop(ctx, NoQuery::parse, q -> new Reply(200, JSON, Replies.write(Replies.Members.of(cluster.membership())))));
        router.get("/v1/agreement").handler(ctx -> offLoop(ctx, (params, resource) -> AgreementQuery.parse(params), this::agreement));
        router.get("/v1/matrix").handler(ctx -> offLoop(ctx, (params, resource) -> MatrixQuery.parse(params), this::matrix));
        router.get("/v1/env").handler(ctx -> offLoop(ctx, (params, resource) -> EnvQuery.parse(params), this::env));
        // two routes: Vert.x Web runs a body handler before any other handler of its route
        router.post("/v1/check").handler(this::refuseForms);
        router.post("/v1/check")
                .handler(BodyHandler.create(false).setBodyLimit(limits.maxBodyBytes()))
                .handler(ctx -> offLoop(ctx, (params, resource) -> CheckQuery.parse(params), options -> check(options, ctx)));
        EventStream stream = new EventStream(vertx, events, guard, EventStream.DEFAULT_KEEP_ALIVE_MS);
        router.get("/v1/events").handler(ctx -> query(ctx, NoQuery::parse).ifPresent(q -> stream.open(ctx)));
        router.get("/metrics").handler(ctx -> onLoop(ctx, q -> new Reply(200, PROMETHEUS, registry.scrape())));
        router.get(ApiDocument.PATH).handler(ctx -> onLoop(ctx, q -> new Reply(200, JSON, DOCUMENT)));
        // off the event loop: each jaccl job's matrix is checked (O(ranks² + names))
        router.get("/v1/jobs").handler(ctx -> offLoop(ctx, NoQuery::parse, q -> new Reply(200, JSON,
                JobsJson.render(JobCheck.check(engine.snapshot(), MlxVersion.NEWEST), MlxVersion.NEWEST))));
        // off the event loop: drawing lays out up to TopologySvg.MAX_NODES nodes
        router.get("/v1/topology.svg").handler(ctx -> offLoop(ctx, NoQuery::parse,
                q -> new Reply(200, SVG, TopologySvg.render(Topology.of(engine.snapshot())))));
        page(router);
        for (int status = 400; status < 600; status++) {
            int code = status;
            router.errorHandler(code, ctx -> failed(ctx, code));
        }
        return router;
    }

    /**
     * The topology page: read-only files from the classpath, by Vert.x Web's {@link StaticHandler}
     * (no directory listings, no hidden files, no path outside its root). The page's own files are
     * not cached by browsers (an upgraded daemon serves its new script at once); d3's path names its
     * version. Every answer forbids framing and loading anything from elsewhere.
     */
    private void page(Router router) {
        StaticHandler pageFiles = StaticHandler.create("railmap-page").setCachingEnabled(false).setDefaultContentEncoding("UTF-8");
        StaticHandler webjars = StaticHandler.create("META-INF/resources/webjars").setDefaultContentEncoding("UTF-8");
        io.vertx.core.Handler<RoutingContext> headers = ctx -> {
            if (query(ctx, NoQuery::parse).isEmpty()) {
                return;
            }
            ctx.response().putHeader("content-security-policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
                    .putHeader("x-content-type-options", "nosniff");
            ctx.next();
        };
        router.get("/").handler(headers).handler(pageFiles);
        // the page is at / only: /page/ would serve it with its relative links broken
        router.get(PAGE + "*").handler(headers).handler(ctx -> {
            if (ctx.normalizedPath().endsWith("/")) {
                ctx.fail(404);
                return;
            }
            ctx.next();
        }).handler(pageFiles);
        router.get(WEBJARS + "*").handler(headers).handler(webjars);
    }

    /** @return the router serving the API, once started (tests read its routes) */
    Router router() {
        return router;
    }

    /** @return the bound TCP port (useful when started with port 0) */
    public int actualPort() {
        return server.actualPort();
    }

    private Reply health(NoQuery q) {
        List<String> stuck = problems.get();
        return new Reply(stuck.isEmpty() ? 200 : 503, JSON, Replies.write(Replies.Health.of(engine.node(), engine.record().version(), stuck)));
    }

    private Reply agreement(AgreementQuery q) {
        Agreement agreement = cluster.agreement().orElseThrow(() -> new HttpException(503, "this daemon runs no cluster member"));
        Snapshot snapshot = engine.snapshot();
        Optional<Provenance> hosts = q.hosts().map(nodes -> Provenance.of(snapshot, nodes));
        return new Reply(200, JSON, Replies.write(Replies.AgreementReply.of(agreement, q.hosts(), hosts)));
    }

    /** {@code GET /v1/env}: one node's settings for the libraries asked ({@link NodeEnv}); an unknown node is 404. */
    private Reply env(EnvQuery q) {
        NodeEnv env = NodeEnv.of(Topology.of(engine.snapshot()), q.node(), q.libraries(), q.options());
        return q.json() ? new Reply(200, JSON, env.json()) : new Reply(200, TEXT, env.text());
    }

    private Reply matrix(MatrixQuery q) {
        Snapshot snapshot = engine.snapshot();
        Topology topology = Topology.of(snapshot);
        Format.Output out = q.format().write(new Format.Request(topology, q.hosts().orElse(topology.nodes()), q.order(), q.rails(),
                q.mlxVersion(), q.emit()));
        return new Reply(200, q.format().mediaType(), out.text());
    }

    /**
     * {@code POST /v1/check}: the body is a jaccl devices file or an mlx.launch hostfile
     * ({@link FileCheck}), strict UTF-8. Hosts of a hostfile that name no node are 404, like unknown
     * {@code hosts=}.
     */
    private Reply check(CheckOptions options, RoutingContext ctx) {
        String body = ctx.body().buffer() == null ? "" : Utf8.strict(ctx.body().buffer().getBytes())
                .orElseThrow(() -> new IllegalArgumentException("the request body is not UTF-8 text: send the devices file or hostfile as it is"));
        try {
            return new Reply(200, JSON, PlanJson.check(FileCheck.check(engine.snapshot(), "request body", body, options)));
        } catch (UnknownHostsException e) {
            throw new HttpException(404, e.getMessage(), e);
        }
    }

    /**
     * A form body would have BodyHandler decode it as form fields (and keep a multipart upload's
     * parts); {@code /v1/check} takes the devices file as the raw body, so forms are refused before
     * anything of them is read.
     */
    private void refuseForms(RoutingContext ctx) {
        String type = Optional.ofNullable(ctx.request().getHeader("content-type")).orElse("").toLowerCase(Locale.ROOT);
        if (type.startsWith("multipart/") || type.startsWith("application/x-www-form-urlencoded")) {
            ctx.fail(415, new IllegalArgumentException("POST /v1/check takes the devices file as the request body, not as a form ("
                    + ErrorReplies.quoted(ctx.request().getHeader("content-type")) + "): send it with Content-Type: application/json, "
                    + "e.g. curl --data-binary @devices.json -H 'Content-Type: application/json'"));
            return;
        }
        ctx.next();
    }

    private record Reply(int status, String mediaType, String body) {
    }

    /** A parser of a request's query string; throws IllegalArgumentException naming what is wrong. */
    @FunctionalInterface
    private interface QueryParser<Q> {
        Q parse(io.vertx.core.MultiMap params, String resource);
    }

    /** Answers on the event loop: for answers that never block. */
    private void onLoop(RoutingContext ctx, Function<NoQuery, Reply> work) {
        query(ctx, NoQuery::parse).ifPresent(q -> send(ctx, work.apply(q)));
    }

    /** @return the parsed query, or empty when it is bad (the request then fails with 400) */
    private <Q> Optional<Q> query(RoutingContext ctx, QueryParser<Q> parser) {
        try {
            return Optional.of(parser.parse(QueryParams.of(ctx), resource(ctx)));
        } catch (IllegalArgumentException e) {
            ctx.fail(400, e);
            return Optional.empty();
        }
    }

    /**
     * Parses the query on the event loop, then runs the work on a worker, at most
     * {@link HttpLimits#maxPendingWork()} at once (503 beyond), and maps its failures to statuses.
     */
    private <Q> void offLoop(RoutingContext ctx, QueryParser<Q> parser, Function<Q, Reply> work) {
        Optional<Q> parsed = query(ctx, parser);
        if (parsed.isEmpty()) {
            return;
        }
        Q q = parsed.get();
        if (pendingWork >= limits.maxPendingWork()) {
            ctx.response().putHeader("retry-after", "1");
            ctx.fail(503, new BusyException(limits.maxPendingWork() + " requests are being computed, the most at once: try again in a second"));
            return;
        }
        pendingWork++;
        Callable<Reply> call = () -> work.apply(q);
        vertx.executeBlocking(call, false).onComplete(result -> {
            pendingWork--;
            if (result.succeeded()) {
                send(ctx, result.result());
            } else {
                ctx.fail(ErrorReplies.status(result.cause()), result.cause());
            }
        });
    }

    private static String resource(RoutingContext ctx) {
        return ctx.request().method().name() + " " + ctx.request().path();
    }

    private static void send(RoutingContext ctx, Reply reply) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return; // answered 503 for taking too long, or the client went away
        }
        ctx.response().setStatusCode(reply.status()).putHeader("content-type", reply.mediaType()).end(reply.body());
    }

    /** The router's answer for every failure and every request no route took, as {@code {"error"}} JSON. */
    private void failed(RoutingContext ctx, int status) {
        Throwable failure = ctx.failure();
        String method = ctx.request().method().name();
        String path = ctx.request().path();
        String fallback;
        switch (status) {
            case 404:
                fallback = "no resource " + ErrorReplies.quoted(path) + ": the API serves " + ROUTES.stream().map(Route::toString)
                        .collect(Collectors.joining(", "));
                break;
            case 405:
                String takes = ROUTES.stream().filter(r -> r.takes(path)).map(r -> r.method().name()).distinct().collect(Collectors.joining(", "));
                ctx.response().putHeader("allow", takes);
                fallback = "method " + ErrorReplies.quoted(method) + " is not allowed on " + path + ": it takes " + takes;
                break;
            case 413:
                fallback = "the request body is larger than " + limits.maxBodyBytes() + " bytes: a devices file is far smaller";
                break;
            case 417:
                fallback = "the Expect header " + ErrorReplies.quoted(ctx.request().getHeader("expect")) + " is not supported, only 100-continue";
                break;
            case 400:
                fallback = "bad request: " + ErrorReplies.quoted(ctx.request().uri());
                break;
            case 503:
                fallback = failure != null && failure.getMessage() != null ? failure.getMessage() : ErrorReplies.reason(status);
                break;
            case 500:
                fallback = "internal error" + (failure == null ? "" : " (" + failure.getClass().getSimpleName() + ")")
                        + " answering " + ErrorReplies.quoted(method) + " " + ErrorReplies.quoted(path) + "; the daemon's log has the details";
                break;
            default:
                fallback = ErrorReplies.reason(status);
                break;
        }
        ErrorReplies.send(ctx.response(), status, ErrorReplies.body(status, failure, fallback));
    }

    /** Too many computations at once: answered 503 with its message. */
    private static final class BusyException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        BusyException(String message) {
            super(message);
        }
    }
}
