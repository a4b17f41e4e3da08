package io.railmap.daemon;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.api.ApiSocket;
import io.railmap.daemon.api.ApiVerticle;
import io.railmap.daemon.api.HealthWatch;
import io.railmap.daemon.api.HttpLimits;
import io.railmap.daemon.api.MeterLimits;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.events.ChangeFeed;
import io.railmap.daemon.events.EventLog;
import io.railmap.daemon.node.DiscoveryPolls;
import io.railmap.daemon.node.LinkEvents;
import io.railmap.daemon.node.LinkWatcher;
import io.railmap.daemon.node.ProbeLinks;
import io.railmap.daemon.node.RankWatch;
import io.railmap.daemon.node.Rebuilds;
import io.railmap.daemon.node.SwitchPortWatch;
import io.railmap.daemon.probe.ProbeConfig;
import io.railmap.daemon.probe.ProbeKey;
import io.railmap.daemon.probe.ProbeService;
import io.railmap.discovery.model.PortSource;
import io.railmap.discovery.sources.ManagementAddress;
import io.railmap.discovery.sources.Sources;
import io.railmap.discovery.sources.WithSwitchPorts;
import io.railmap.matrix.change.ClusterState;
import io.railmap.matrix.job.JobVerdict;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One railmapd, wired: {@link #start} brings it up, {@link #stop} leaves the cluster, sends the
 * probe's goodbyes and closes everything, each part within {@value #PART_STOP_MS} ms.
 * <ul>
 *   <li>discovery, polled one poll at a time ({@link DiscoveryPolls}) on each link event the kernel
 *       announces ({@link LinkEvents}, Linux) and once a tick → {@link Engine} (own record) and
 *       {@link ProbeLinks} (which ports the probe runs on);</li>
 *   <li>probe events → the engine's neighbours;</li>
 *   <li>the engine ⇄ {@link Cluster}: own record out, other nodes' records in;</li>
 *   <li>the engine → the change feed ({@link ChangeFeed}: events and the topology log line) on the
 *       rebuild thread ({@link Rebuilds}, coalesced), and the HTTP API; {@link HealthWatch} for
 *       {@code /healthz}.</li>
 * </ul>
 *
 * <p>Threads: no event loop and no JGroups thread ever rebuilds the topology or waits on a lock a
 * rebuild holds.
 */
public final class Daemon {
    private static final Logger LOG = System.getLogger(Daemon.class.getName());
    /**
     * How long stopping waits for the cluster member to leave and for Vert.x to close (the API, the
     * probe's goodbyes), in ms; the two run at once. A part still closing after that is left behind.
     */
    static final long PART_STOP_MS = 3_000;

    private final DaemonConfig config;
    private final PrometheusMeterRegistry registry = MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    private final Engine engine;
    /** The probe's incarnation: the start time in ms, which its replay protection needs to grow (PROBE.md). */
    private final long probeIncarnation;
    private Vertx vertx;
    private ApiVerticle api;
    private Cluster cluster;
    private Rebuilds rebuilds;
    private DiscoveryPolls polls;
    private DiscoveryPolls switchPolls;
    private DiscoveryPolls rankPolls;
    private LinkEvents linkEvents;
    private volatile HealthWatch health;

    /** @param config what this daemon is told */
    public Daemon(DaemonConfig config) {
        this.config = config;
        this.probeIncarnation = System.currentTimeMillis();
        this.engine = new Engine(config.node(), ManagementAddress.ofRecord(config.member().bind()));
    }

    /**
     * Starts Vert.x, the HTTP API, the probe, the cluster member, the health watch and the discovery
     * timer; returns once the API listens and the member has a view (about a second when it is
     * alone). {@code /healthz} answers 503 ("starting") until then.
     *
     * @throws IllegalArgumentException naming the path when {@code --api-socket} is a live daemon's
     *                                  socket or not a socket at all ({@link ApiSocket#claim}), or
     *                                  when seeds were given and none resolves
     * @throws IllegalStateException    naming the port and what to do when the API's TCP port or
     *                                  socket, the probe's UDP port, the cluster port or the
     *                                  failure-detection port is taken, or naming the cause when
     *                                  another part cannot start
     */
    public void start() {
        config.apiSocket().ifPresent(ApiSocket::claim);
        vertx = Vertx.builder()
                .withMetrics(new MicrometerMetricsFactory(registry))
                .with(new io.vertx.core.VertxOptions()
                        // a handful of sockets and a timer: two event loops and a few workers are plenty
                        // (Vert.x defaults to 2 × cores loops and 20 workers)
                        .setEventLoopPoolSize(2).setWorkerPoolSize(4).setInternalBlockingPoolSize(2)
                        // labels whose values the daemon bounds (MeterLimits); never the path or the remote address
                        .setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true)
                                .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.POOL_TYPE, Label.POOL_NAME))))
                .build();
        gauges();
        EventLog events = new EventLog();
        ChangeFeed feed = new ChangeFeed(events);
        for (String verdict : JobVerdict.VERDICTS) {
            Gauge.builder("railmap.jobs", feed, f -> f.jobs(verdict)).tag("verdict", verdict)
                    .description("running jobs of the cluster by verdict, at the last rebuild (docs/check.md, Running jobs)").register(registry);
        }
        cluster = new Cluster(config.member(), engine, registry);
        Cluster member = cluster;
        rebuilds = new Rebuilds(() -> feed.observe(engine.snapshot(),
                member.membership().members().stream().flatMap(m -> m.node().stream()).collect(Collectors.toSet()),
                // no agreement to speak of before the first view
                member.agreement().filter(a -> !a.members().isEmpty()).map(a -> new ClusterState.Agreed(a.agreed(), a.digest()))));
        engine.onChange(rebuilds::request);
        cluster.onChange(rebuilds::request);
        api = new ApiVerticle(engine, cluster, events, this::problems, registry, HttpLimits.DEFAULTS, config.apiHost(), config.apiPort(),
                config.apiSocket());
        try {
            vertx.deployVerticle(api).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot start: " + e.getMessage(), e);
        }
        String management = (config.apiHost().indexOf(':') >= 0 ? "[" + config.apiHost() + "]" : config.apiHost())
                + ":" + api.actualPort();
        ProbeConfig probeConfig = ProbeConfig.defaults(config.cluster(), config.node(), probeIncarnation, management).withTiming(config.probe())
                .withKey(config.member().key().map(ProbeKey::derive));
        ProbeService probe = new ProbeService(probeConfig, registry);
        try {
            vertx.deployVerticle(probe).await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot start: " + PortsInUse.probe(e, probeConfig.udpPort()).orElse(e.getMessage()), e);
        }
        try {
            cluster.start();
        } catch (IllegalStateException e) {
            close();
            throw new IllegalStateException(PortsInUse.cluster(config.member(), e).map(m -> "cannot start: " + m).orElse(e.getMessage()), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        health = new HealthWatch(vertx, cluster);
        probe.addListener(event -> engine.neighbours(probe.neighbours()));
        config.discovery().assumed().globs().ifPresent(globs -> LOG.log(Level.WARNING, "--assume-rdma " + Names.escape(globs)
                + ": ports without an RDMA device that match it are reported with the RDMA device rdma_<netdev>, which does not"
                + " exist; for labs and tests only, never on a real cluster (jaccl cannot open such a device)"));
        Sources.Settings sources = config.discovery();
        SwitchPortWatch switchPorts = new SwitchPortWatch(Sources.switchPorts(sources), config.switchPollMs());
        PortSource source = new WithSwitchPorts(Sources.ports(sources), found -> {
            switchPorts.ports(found);
            return switchPorts.latest();
        });
        ProbeLinks links = new ProbeLinks(probe);
        LinkWatcher watcher = new LinkWatcher(source, discovery -> {
            engine.ports(discovery.ports().stream().map(p -> p.port()).toList(), discovery.rdmaEnabled());
            links.reconcile(discovery.ports());
        });
        polls = new DiscoveryPolls(vertx, config.linkPollMs(), watcher::poll);
        polls.start();
        if (config.linkEvents()) {
            DiscoveryPolls linkPolls = polls;
            linkEvents = new LinkEvents(LinkEvents.IP_MONITOR, linkPolls::request, running -> {
                linkPolls.tick(running ? config.linkRecheckMs() : config.linkPollMs(), running ? "--link-recheck-ms" : "--link-poll-ms");
                if (running) {
                    linkPolls.request(); // what changed before the monitor listened
                }
            });
            linkEvents.start();
        }
        switchPolls = new DiscoveryPolls(vertx, config.switchPollMs(), switchPorts::poll, "reading switch ports", "--switch-poll-ms");
        switchPolls.start();
        if (config.rankScanMs().isPresent()) {
            RankWatch ranks = RankWatch.forThisMachine(engine::ranks);
            if (ranks.active()) {
                rankPolls = new DiscoveryPolls(vertx, config.rankScanMs().getAsLong(), ranks::poll, "looking for running jobs", "--rank-scan-ms");
                rankPolls.start();
            }
        } else {
            LOG.log(Level.INFO, "running jobs are not looked for: --rank-scan-ms off (no process is read; this node's record holds no"
                    + " ranks, docs/jobs.md)");
        }
        LOG.log(Level.INFO, "railmapd " + config.node() + " up: cluster " + config.cluster() + " at " + config.member().address()
                + config.member().key().map(k -> " (encrypted, key " + k.fingerprint() + ")").orElse(" (not encrypted)") + ", API http://"
                + config.apiHost() + ":" + api.actualPort() + config.apiSocket().map(p -> " and unix:" + p).orElse("") + ", discovery "
                + (config.linkEvents() ? "on link events and every " + config.linkRecheckMs() + " ms (every " + config.linkPollMs() + " ms without events)"
                        : "every " + config.linkPollMs() + " ms") + ", switch ports every " + config.switchPollMs() + " ms, "
                + (config.rankScanMs().isPresent() ? "running jobs every " + config.rankScanMs().getAsLong() + " ms" : "running jobs off")
                + ", hello every "
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
        Gauge.builder("railmap.ranks", engine, e -> e.record().ranks().size())
                .description("ranks of running jobs in this node's record (docs/jobs.md)").register(registry);
        Gauge.builder("railmap.records", engine, e -> e.snapshot().records().size())
                .description("records this daemon holds, its own included").register(registry);
    }

    private List<String> problems() {
        HealthWatch h = health;
        return h == null ? List.of("the daemon is starting") : h.problems();
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

    /** @return this daemon's Vert.x (for tests in this package that watch its event loops); null before {@link #start} */
    Vertx vertx() {
        return vertx;
    }

    /** @return this daemon's cluster member */
    public Cluster cluster() {
        return cluster;
    }

    /**
     * Leaves the cluster (the others drop this node's record at once) and, at the same time, sends
     * the probe's goodbyes (TTL 0) and closes Vert.x; waits at most {@value #PART_STOP_MS} ms.
     */
    public void stop() {
        LOG.log(Level.INFO, "railmapd " + config.node() + " stopping");
        close();
    }

    private void close() {
        HealthWatch h = health;
        if (h != null) {
            h.close();
        }
        if (linkEvents != null) {
            linkEvents.close();
        }
        if (polls != null) {
            polls.close();
        }
        if (switchPolls != null) {
            switchPolls.close();
        }
        if (rankPolls != null) {
            rankPolls.close();
        }
        if (rebuilds != null) {
            rebuilds.close();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PART_STOP_MS);
        Thread leaving = null;
        if (cluster != null) {
            leaving = new Thread(cluster::close, "railmap-cluster-close");
            leaving.setDaemon(true);
            leaving.start();
        }
        Future<Void> closing = vertx == null ? null : vertx.close();
        try {
            if (leaving != null) {
                leaving.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (leaving.isAlive()) {
                    LOG.log(Level.WARNING, "the cluster member did not close within " + PART_STOP_MS + " ms; stopping without it");
                }
            }
            if (closing != null) {
                closing.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "Vert.x did not close within " + PART_STOP_MS + " ms (" + e.getMessage() + "); stopping without it");
        }
    }
}
