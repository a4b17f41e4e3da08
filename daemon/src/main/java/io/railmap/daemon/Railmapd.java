package io.railmap.daemon;

import io.railmap.daemon.cluster.ClusterConfig;
import io.railmap.daemon.cluster.ClusterKey;
import io.railmap.daemon.cluster.ClusterTiming;
import io.railmap.daemon.cluster.ManagementAddress;
import io.railmap.daemon.cluster.Seed;
import io.railmap.daemon.discovery.DiscoveryOptions;
import io.railmap.daemon.probe.ProbeTiming;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code railmapd}: the per-node daemon. Flags may also come from a properties file ({@code --config}). */
@Command(name = "railmapd", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The railmap daemon: discovers this node's RDMA, Thunderbolt and selected Ethernet ports, learns who is "
                + "at the far end of each cable with a link-local probe, shares its record with every other daemon of the "
                + "cluster (JGroups, on the management network), and serves records, snapshots, members, matrices and "
                + "checks over HTTP.",
        footer = {"", "Config file: --config FILE reads Java properties whose keys are the long option names without dashes,",
            "e.g. 'interfaces=veth*' or 'probe-interval-ms=250'; flags on the command line win.",
            "", "Examples:", "  railmapd --node studio-a --interfaces 'en*' --api 127.0.0.1:7246",
            "  railmapd --bind 10.0.0.5 --seeds 10.0.0.1,10.0.0.2 --cluster-key-file /etc/railmap/cluster.key",
            "", "Ports: probe UDP 7245 on cable ports; API TCP 7246; on the management address: cluster TCP 7800,",
            "failure detection TCP 7900 (cluster port + 100), multicast discovery UDP 7247 (only without --seeds).",
            "", "Exit codes: 0 stopped cleanly (SIGTERM, SIGINT), 1 bad flag or config (also --api-socket naming a live daemon's",
            "socket or a file that is not a socket), 2 could not start (a port in use: the message names it), 3 out of memory",
            "(the JVM's -XX:+ExitOnOutOfMemoryError, set by bin/railmapd), 4 still stopping 5 s after SIGTERM: halted."})
public final class Railmapd implements Callable<Integer> {
    private static final System.Logger LOG = System.getLogger(Railmapd.class.getName());

    @Option(names = "--config", paramLabel = "FILE", description = "Read defaults for every option from this properties file.")
    Path config;

    @Mixin
    DiscoveryOptions discovery;

    @Option(names = "--api", paramLabel = "ADDR:PORT", defaultValue = DaemonConfig.DEFAULT_API_HOST + ":" + DaemonConfig.DEFAULT_API_PORT,
            description = "Where the HTTP API listens. Default: ${DEFAULT-VALUE} (this machine only).")
    String api;

    @Option(names = "--api-socket", paramLabel = "PATH",
            description = "Also serve the API on this Unix domain socket (reachable from every network namespace).")
    Path apiSocket;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = DaemonConfig.DEFAULT_CLUSTER,
            description = "Cluster name: daemons of other clusters never join this one, and their probes are dropped. "
                    + "Default: ${DEFAULT-VALUE}.")
    String cluster;

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "Management address the cluster listens on (any interface the nodes share; never a cable port). "
                    + "Default: the address of the interface holding the default route, else the only non-loopback IPv4 "
                    + "address; required when neither decides.")
    String bind;

    @Option(names = "--cluster-port", paramLabel = "PORT", defaultValue = "" + ClusterConfig.DEFAULT_PORT,
            description = "Cluster TCP port on the management address; failure detection listens on this port + 100. "
                    + "Default: ${DEFAULT-VALUE}.")
    int clusterPort;

    @Option(names = "--seeds", paramLabel = "HOST[:PORT],...",
            description = "Daemons to ask for the cluster when starting (the port defaults to --cluster-port). "
                    + "Default: none, find the others by UDP multicast on the management network.")
    String seeds;

    @Option(names = "--cluster-key", paramLabel = "BASE64",
            description = "Shared secret (base64 of at least 16 random bytes, e.g. from 'openssl rand -base64 32'): "
                    + "cluster traffic is encrypted and authenticated, and daemons without it cannot join. Visible in "
                    + "'ps': prefer --cluster-key-file.")
    String clusterKey;

    @Option(names = "--cluster-key-file", paramLabel = "FILE",
            description = "Read the shared secret from FILE (mode 0600).")
    Path clusterKeyFile;

    @Option(names = "--cluster-timing", paramLabel = "PRESET", defaultValue = "default",
            description = "Failure detection and merge timing: 'default' (a killed daemon dropped within about 2 s, a "
                    + "frozen one within 8 s) or 'lab' (faster, for namespaces on one machine). Default: ${DEFAULT-VALUE}.")
    String clusterTiming;

    @Option(names = "--probe-interval-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Hello interval per port in ms (a far end is forgotten after 3.5 intervals of silence). Default: ${DEFAULT-VALUE}.")
    long probeIntervalMs;

    @Option(names = "--link-poll-ms", paramLabel = "MS",
            description = "How often local discovery runs, in ms. Default: 500 on Linux, 3000 on macOS.")
    Long linkPollMs;

    /** @param args the command line */
    public static void main(String[] args) {
        Logs.install();
        CommandLine cmd = new CommandLine(new Railmapd());
        cmd.setUsageHelpWidth(100);
        cmd.setExecutionExceptionHandler((e, c, parsed) -> {
            c.getErr().println("railmapd: " + e.getMessage());
            return e instanceof IllegalArgumentException ? 1 : 2;
        });
        cmd.setParameterExceptionHandler((e, a) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("railmapd: " + e.getMessage());
            err.println("Try 'railmapd --help' for usage.");
            return 1;
        });
        String configFile = configFile(args);
        if (configFile != null) {
            if (!java.nio.file.Files.isReadable(Path.of(configFile))) {
                System.err.println("railmapd: cannot read config file " + configFile);
                System.exit(1);
            }
            cmd.setDefaultValueProvider(new CommandLine.PropertiesDefaultProvider(Path.of(configFile).toFile()));
        }
        int code = cmd.execute(args);
        Logs.finish();
        System.exit(code);
    }

    private static String configFile(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                return args[i + 1];
            }
            if (args[i].startsWith("--config=")) {
                return args[i].substring("--config=".length());
            }
        }
        return null;
    }

    /** @return the configuration the flags describe */
    DaemonConfig daemonConfig() {
        int colon = api.lastIndexOf(':');
        if (colon <= 0 || !api.substring(colon + 1).matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("--api \"" + api + "\" is not ADDR:PORT, e.g. 127.0.0.1:7246");
        }
        String host = api.substring(0, colon).replaceAll("^\\[(.*)]$", "$1");
        boolean mac = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac") && discovery.sysfsRoot().isEmpty();
        long poll = linkPollMs != null ? linkPollMs : (mac ? 3000 : 500);
        if (probeIntervalMs < ProbeTiming.MIN_INTERVAL_MS) {
            throw new IllegalArgumentException("--probe-interval-ms must be at least " + ProbeTiming.MIN_INTERVAL_MS);
        }
        ProbeTiming timing = ProbeTiming.DEFAULTS.withIntervals(probeIntervalMs, Math.max(ProbeTiming.MIN_INTERVAL_MS, probeIntervalMs / 4));
        String nodeName = discovery.node();
        return new DaemonConfig(nodeName, cluster, discovery.selection(), host,
                Integer.parseInt(api.substring(colon + 1)), Optional.ofNullable(apiSocket), timing, poll, discovery.sysfsRoot(),
                discovery.macosCapture(), member(nodeName));
    }

    /** @return the cluster member the flags describe; logs how the management address was chosen */
    private ClusterConfig member(String nodeName) {
        if (clusterPort < 1 || clusterPort > ClusterConfig.MAX_PORT) {
            throw new IllegalArgumentException("--cluster-port " + clusterPort + " is outside 1-" + ClusterConfig.MAX_PORT
                    + " (failure detection listens 100 above it)");
        }
        if (clusterKey != null && clusterKeyFile != null) {
            throw new IllegalArgumentException("give --cluster-key or --cluster-key-file, not both");
        }
        Optional<ClusterKey> key = Optional.empty();
        if (clusterKey != null) {
            key = Optional.of(ClusterKey.parse("--cluster-key", clusterKey));
        } else if (clusterKeyFile != null) {
            ClusterKey.Loaded loaded = ClusterKey.read(clusterKeyFile);
            if (loaded.warning() != null) {
                LOG.log(Level.WARNING, loaded.warning());
            }
            key = Optional.of(loaded.key());
        }
        java.util.List<Seed> seedList = seeds == null || seeds.isBlank() ? java.util.List.of() : Seed.parseList(seeds, clusterPort);
        ClusterTiming timing;
        try {
            timing = ClusterTiming.preset(clusterTiming);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cluster-timing: " + e.getMessage());
        }
        InetAddress address;
        if (bind != null) {
            address = ManagementAddress.parseLocal(bind);
        } else {
            ManagementAddress.Choice choice = ManagementAddress.ofThisMachine();
            LOG.log(Level.INFO, "management address " + choice.address().getHostAddress() + ": " + choice.reason() + " (--bind to choose)");
            address = choice.address();
        }
        return new ClusterConfig(cluster, nodeName, address, clusterPort, seedList, key, timing);
    }

    /**
     * Starts the daemon and serves until SIGTERM or SIGINT, then stops it under
     * {@link StopDeadline}: the process ends with {@value StopDeadline#EXIT_STOPPED} after a clean
     * stop, {@value StopDeadline#EXIT_HALTED} when stopping outlasted
     * {@value StopDeadline#DEADLINE_MS} ms.
     */
    @Override
    public Integer call() throws InterruptedException {
        DaemonConfig cfg = daemonConfig();
        Daemon daemon = new Daemon(cfg);
        daemon.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> StopDeadline.run(daemon::stop, StopDeadline.DEADLINE_MS,
                Runtime.getRuntime()::halt), "railmapd-shutdown"));
        new CountDownLatch(1).await(); // the shutdown hook ends the process
        return 0;
    }
}
