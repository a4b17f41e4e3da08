package io.railmap.daemon.api;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import io.railmap.matrix.model.NodeRecord;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's HTTP API for tests: {@link ApiVerticle} on an ephemeral port of 127.0.0.1 over a given
 * engine, with a real cluster member alone on loopback (lab timing, no key) and a client. Every call
 * waits at most 10 s. Close it after the tests.
 */
final class ApiOnLoopback implements AutoCloseable {
    private static final long WAIT_S = 10;

    private final Vertx vertx;
    private final ApiVerticle api;
    private final Cluster cluster;
    private final WebClient client;
    private final int port;

    private ApiOnLoopback(Vertx vertx, Cluster cluster, WebClient client, int port, ApiVerticle api) {
        this.api = api;
        this.vertx = vertx;
        this.cluster = cluster;
        this.client = client;
        this.port = port;
    }

    /**
     * @param clusterName the cluster's name
     * @param engine      this node's engine, holding its own record
     * @param others      other nodes' records, given to the engine after the member's first view (which
     *                    would drop the record of a node that is not a member)
     * @return the API, listening
     */
    static ApiOnLoopback start(String clusterName, Engine engine, List<NodeRecord> others) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Cluster cluster = new Cluster(new ClusterConfig(clusterName, engine.node(), InetAddress.getLoopbackAddress(), FreePorts.clusterPort(),
                List.of(), Optional.empty(), ClusterTiming.LAB), engine, registry);
        cluster.start();
        others.forEach(engine::accept);
        Vertx vertx = Vertx.vertx();
        ApiVerticle api = new ApiVerticle(engine, cluster, registry, "127.0.0.1", 0, Optional.empty());
        vertx.deployVerticle(api).await(WAIT_S, TimeUnit.SECONDS);
        return new ApiOnLoopback(vertx, cluster, WebClient.create(vertx), api.actualPort(), api);
    }

    /** @return the API's verticle, started */
    ApiVerticle verticle() {
        return api;
    }

    /** @return the Vert.x instance the API runs on */
    Vertx vertx() {
        return vertx;
    }

    /** @return the answer to {@code GET uri} */
    HttpResponse<Buffer> get(String uri) throws Exception {
        return client.get(port, "127.0.0.1", uri).send().await(WAIT_S, TimeUnit.SECONDS);
    }

    /** @return the answer to {@code POST uri} with that body */
    HttpResponse<Buffer> post(String uri, Buffer body) throws Exception {
        return client.post(port, "127.0.0.1", uri).sendBuffer(body).await(WAIT_S, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        vertx.close().await(WAIT_S, TimeUnit.SECONDS);
        cluster.close();
    }
}
