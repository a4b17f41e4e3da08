package io.railmap.daemon.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Member;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.emit.PlanJson;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.plan.NoRingException;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.UnknownNodesException;
import io.railmap.matrix.topology.Topology;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The daemon's HTTP API. Routes:
 * <pre>
 * GET  /healthz                       {"status": "ok", "node": ..., "recordVersion": ...}
 * GET  /v1/record                     this node's record (snapshot format's record)
 * GET  /v1/snapshot                   every record this daemon knows (railmap-snapshot)
 * GET  /v1/members                    the cluster's members (shape in {@link #members})
 * GET  /v1/matrix?hosts=a,b&amp;format=…  the plan in a format (see {@link MatrixQuery})
 * POST /v1/check?hosts=a,b&amp;mode=…     body: a jaccl devices file; answer: findings JSON
 * GET  /metrics                       Micrometer, Prometheus text format
 * </pre>
 * Bad requests get 400 and unknown hosts 404, no ring through the hosts 422, each with
 * {@code {"error": "<sentence>"}} (plus {@code "unknown"} or {@code "unplaceable"} node lists).
 * Planning, checking and the membership run off the event loop.
 */
public final class ApiVerticle extends VerticleBase {
    private static final String JSON = "application/json";
    private final Engine engine;
    private final Supplier<Membership> membership;
    private final PrometheusMeterRegistry registry;
    private final String host;
    private final int port;
    private final Optional<Path> socket;
    private HttpServer server;

    /**
     * @param engine     what the daemon knows
     * @param membership the cluster's current view (a plain query; the cluster member answers it)
     * @param registry   the metrics registry scraped by {@code /metrics}
     * @param host     the address to bind ({@code 127.0.0.1} by default in the daemon)
     * @param port     the TCP port to bind; 0 picks a free one ({@link #actualPort()})
     * @param socket   a Unix domain socket to serve on as well; a stale socket file there is replaced
     */
    public ApiVerticle(Engine engine, Supplier<Membership> membership, PrometheusMeterRegistry registry, String host, int port,
                       Optional<Path> socket) {
        this.engine = engine;
        this.membership = membership;
        this.registry = registry;
        this.host = host;
        this.port = port;
        this.socket = socket;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/healthz").handler(this::health);
        router.get("/v1/record").handler(this::record);
        router.get("/v1/snapshot").handler(this::snapshot);
        router.get("/v1/members").handler(this::members);
        router.get("/v1/matrix").handler(this::matrix);
        router.post("/v1/check").handler(BodyHandler.create().setBodyLimit(1 << 20)).handler(this::check);
        router.get("/metrics").handler(this::metrics);
        server = vertx.createHttpServer().requestHandler(router);
        Future<?> tcp = server.listen(port, host);
        if (socket.isEmpty()) {
            return tcp;
        }
        return tcp.compose(bound -> vertx.executeBlocking(() -> Files.deleteIfExists(socket.get()), false))
                .compose(deleted -> vertx.createHttpServer().requestHandler(router)
                        .listen(SocketAddress.domainSocketAddress(socket.get().toString())));
    }

    /** @return the bound TCP port (useful when started with port 0) */
    public int actualPort() {
        return server.actualPort();
    }

    private void health(RoutingContext ctx) {
        ObjectNode out = JsonText.object();
        out.put("status", "ok");
        out.put("node", engine.node());
        out.put("recordVersion", engine.record().version());
        send(ctx, 200, JSON, JsonText.pretty(out));
    }

    private void record(RoutingContext ctx) {
        send(ctx, 200, JSON, SnapshotCodec.write(engine.record()));
    }

    private void snapshot(RoutingContext ctx) {
        send(ctx, 200, JSON, SnapshotCodec.write(engine.snapshot()));
    }

    /**
     * {@code GET /v1/members}:
     * <pre>
     * {"cluster": "railmap", "viewId": 7,
     *  "members": [{"node": "a", "address": "10.0.0.1:7800", "self": true, "coordinator": true,
     *               "recordVersion": 1795360169801, "recordAgeMs": 40}, ...]}
     * </pre>
     * Members in view order, the coordinator first. {@code node} is null for a member that is not a
     * railmapd; {@code recordVersion} and {@code recordAgeMs} (ms since this daemon took that
     * version; for itself, since it made it) are null while no record of the member is held.
     */
    private void members(RoutingContext ctx) {
        // off the event loop: the membership waits for the cluster's lock while a record is taken
        answer(ctx, () -> new Reply(JSON, membersJson(membership.get())));
    }

    private static String membersJson(Membership m) {
        ObjectNode out = JsonText.object();
        out.put("cluster", m.cluster());
        out.put("viewId", m.viewId());
        ArrayNode list = out.putArray("members");
        for (Member member : m.members()) {
            ObjectNode o = list.addObject();
            o.put("node", member.node().orElse(null));
            o.put("address", member.address());
            o.put("self", member.self());
            o.put("coordinator", member.coordinator());
            if (member.recordVersion().isPresent()) {
                o.put("recordVersion", member.recordVersion().getAsLong());
            } else {
                o.putNull("recordVersion");
            }
            if (member.recordAgeMs().isPresent()) {
                o.put("recordAgeMs", member.recordAgeMs().getAsLong());
            } else {
                o.putNull("recordAgeMs");
            }
        }
        return JsonText.pretty(out);
    }

    private void matrix(RoutingContext ctx) {
        answer(ctx, () -> {
            MatrixQuery q = MatrixQuery.parse(ctx.queryParams());
            Snapshot snapshot = engine.snapshot();
            Topology topology = Topology.of(snapshot);
            Plan plan = Planner.plan(topology, q.hosts().orElse(topology.nodes()), q.order(), q.rails());
            return new Reply(q.format().mediaType(), q.format().render(topology, plan, q.emit()));
        });
    }

    private void check(RoutingContext ctx) {
        answer(ctx, () -> {
            CheckQuery q = CheckQuery.parse(ctx.queryParams());
            String body = ctx.body().asString();
            List<List<List<String>>> cells = DevicesCodec.read("request body", body == null ? "" : body);
            List<Finding> findings = Checker.check(Topology.of(engine.snapshot()), q.ranks(), cells, q.mode());
            return new Reply(JSON, PlanJson.check(q.ranks(), q.mode(), findings));
        });
    }

    private void metrics(RoutingContext ctx) {
        send(ctx, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
    }

    private record Reply(String mediaType, String body) {
    }

    /** Runs the work off the event loop and maps its failures to status codes. */
    private void answer(RoutingContext ctx, Callable<Reply> work) {
        vertx.executeBlocking(work, false).onComplete(result -> {
            if (result.succeeded()) {
                send(ctx, 200, result.result().mediaType(), result.result().body());
                return;
            }
            Throwable e = result.cause();
            ObjectNode error = JsonText.object();
            error.put("error", e.getMessage());
            int status;
            if (e instanceof UnknownNodesException unknown) {
                status = 404;
                ArrayNode nodes = error.putArray("unknown");
                unknown.nodes().forEach(nodes::add);
            } else if (e instanceof NoRingException noRing) {
                status = 422;
                ArrayNode nodes = error.putArray("unplaceable");
                noRing.unplaceable().forEach(nodes::add);
            } else if (e instanceof IllegalArgumentException) {
                status = 400;
            } else {
                status = 500;
                error.put("error", "internal error: " + e);
            }
            send(ctx, status, JSON, JsonText.pretty(error));
        });
    }

    private static void send(RoutingContext ctx, int status, String mediaType, String body) {
        ctx.response().setStatusCode(status).putHeader("content-type", mediaType).end(body);
    }
}
