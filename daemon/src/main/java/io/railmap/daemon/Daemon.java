package io.railmap.daemon;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.discovery.PortSource;
import io.railmap.daemon.discovery.PortSources;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.node.LinkWatcher;
import io.railmap.daemon.node.ProbeLinks;
import io.railmap.daemon.node.TopologyLog;
import io.railmap.daemon.probe.ProbeConfig;
import io.railmap.daemon.probe.ProbeKey;
import io.railmap.daemon.probe.ProbeService;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One railmapd, wired: discovery polled on a timer → {@link Engine} (own record) and
 * {@link ProbeLinks} (which ports the probe runs on); probe events → the engine's neighbours; the
 * engine ⇄ {@link Cluster} (own record out, other nodes' records in); the engine →
 * {@link TopologyLog} and the HTTP API. {@link #start} brings it up, {@link #stop} leaves the
 * cluster, sends the probe's goodbyes and closes everything.
 */
public final class Daemon {
    private static final Logger LOG = System.getLogger(Daemon.class.getName());

    private final DaemonConfig config;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Engine engine;
    private final long incarnation;
    private Vertx vertx;
    private ApiVerticle api;
    private Cluster cluster;

    /** @param config what this daemon is told */
    public Daemon(DaemonConfig config) {
        this.config = config;
        this.incarnation = System.currentTimeMillis();
        this.engine = new Engine(config.node(), () -> incarnation);
    }

    /**
     * Starts Vert.x, the HTTP API, the probe, the cluster member and the discovery timer; returns once
     * the API listens and the member has a view (about a second when it is alone).
     *
     * @throws IllegalStateException naming the cause when the API port cannot be bound, the probe
     *                               cannot listen or the cluster ports are in use
     * @throws IllegalArgumentException when seeds were given and none resolves
     */
    public void start() {
        vertx = Vertx.builder()
                .withMetrics(new MicrometerMetricsFactory(registry))
                .with(new io.vertx.core.VertxOptions()
                        // a handful of sockets and a timer: two event loops and a few workers are plenty
                        // (Vert.x defaults to 2 × cores loops and 20 workers)
                        .setEventLoopPoolSize(2).setWorkerPoolSize(4).setInternalBlockingPoolSize(2)
                        .setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)))
                .build();
        gauges();
        TopologyLog topologyLog = new TopologyLog();
        engine.onChange(() -> topologyLog.observe(engine.snapshot()));
        cluster = new Cluster(config.member(), engine, registry);
        api = new ApiVerticle(engine, cluster::membership, registry, config.apiHost(), config.apiPort(), config.apiSocket());
        ProbeService probe;
        try {
            vertx.deployVerticle(api).await(30, TimeUnit.SECONDS);
            String management = (config.apiHost().indexOf(':') >= 0 ? "[" + config.apiHost() + "]" : config.apiHost())
                    + ":" + api.actualPort();
            probe = new ProbeService(ProbeConfig.defaults(config.cluster(), config.node(), incarnation, management)
                    .withTiming(config.probe()).withKey(config.member().key().map(ProbeKey::derive)), registry);
            vertx.deployVerticle(probe).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot start: " + e.getMessage(), e);
        }
        try {
            cluster.start();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        probe.addListener(event -> engine.neighbours(probe.neighbours()));
        PortSource source = PortSources.choose(config.node(), config.sysfsRoot(), config.macosCapture(), config.interfaces());
        ProbeLinks links = new ProbeLinks(probe);
        LinkWatcher watcher = new LinkWatcher(source, ports -> {
            engine.ports(ports.stream().map(p -> p.port()).toList());
            links.reconcile(ports);
        });
        Runnable poll = () -> vertx.executeBlocking(() -> {
            watcher.poll();
            return null;
        }, true);
        poll.run();
        vertx.setPeriodic(config.linkPollMs(), id -> poll.run());
        LOG.log(Level.INFO, "railmapd " + config.node() + " up: cluster " + config.cluster() + " at " + config.member().address()
                + config.member().key().map(k -> " (encrypted, key " + k.fingerprint() + ")").orElse(" (not encrypted)") + ", API http://"
                + config.apiHost() + ":" + api.actualPort() + config.apiSocket().map(p -> " and unix:" + p).orElse("") + ", discovery every " + config.linkPollMs() + " ms, hello every "
                + config.probe().intervalMs() + " ms");
    }

    private void gauges() {
        Gauge.builder("railmap.ports", engine, e -> e.record().ports().size())
                .description("ports in this node's record").register(registry);
        Gauge.builder("railmap.neighbours", engine, e -> e.record().ports().stream().mapToInt(p -> p.neighbours().size()).sum())
                .description("far ends heard on this node's ports").register(registry);
        Gauge.builder("railmap.ports.active", engine, e -> e.record().ports().stream().filter(Port::active).count())
                .description("active ports in this node's record").register(registry);
        Gauge.builder("railmap.record.version", engine, e -> e.record().version())
                .description("version of this node's record").register(registry);
        Gauge.builder("railmap.records", engine, e -> e.snapshot().records().size())
                .description("records this daemon holds, its own included").register(registry);
    }

    /** @return what this daemon knows */
    public Engine engine() {
        return engine;
    }

    /** @return this node's current record */
    public NodeRecord record() {
        return engine.record();
    }

    /** @return the bound API port */
    public int apiPort() {
        return api.actualPort();
    }

    /** @return this daemon's cluster member */
    public Cluster cluster() {
        return cluster;
    }

    /**
     * Leaves the cluster (the others drop this node's record at once), sends the probe's goodbyes
     * (TTL 0) and closes Vert.x; waits at most about 6 s.
     */
    public void stop() {
        LOG.log(Level.INFO, "railmapd " + config.node() + " stopping");
        close();
    }

    private void close() {
        if (cluster != null) {
            cluster.close();
        }
        if (vertx != null) {
            try {
                vertx.close().await(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.log(Level.WARNING, "stopping took too long: " + e.getMessage());
            }
        }
    }
}
