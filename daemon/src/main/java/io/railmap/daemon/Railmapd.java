package io.railmap.daemon;

import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.probe.ProbeTiming;
import io.railmap.discovery.sources.ManagementAddress;
import io.railmap.discovery.sources.Sources;
import io.railmap.matrix.model.Names;
import io.railmap.options.DiscoveryOptions;
import io.railmap.options.JavaRuntime;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code railmapd}: the per-node daemon. Flags may also come from a properties file ({@code --config}). */
@Command(name = "railmapd", mixinStandardHelpOptions = true, sortOptions = false, versionProvider = Railmapd.Version.class,
        description = "The railmap daemon: discovers this node's RDMA, Thunderbolt and selected Ethernet ports, learns who is "
                + "at the far end of each cable with a link-local probe, shares its record with every other daemon of the "
                + "cluster (JGroups, on the management network), and serves records, snapshots, members, matrices and "
                + "checks over HTTP.",
        footer = {"", "Config file: --config FILE reads Java properties whose keys are the long option names without dashes,",
            "e.g. 'interfaces=veth*' or 'probe-interval-ms=250'; flags on the command line win. An unknown or repeated",
            "key is an error. The config file and the key file must be regular UTF-8 text files of at most 64 KiB.",
            "", "Examples:", "  railmapd --node studio-a --interfaces 'en*' --api 127.0.0.1:7246",
            "  railmapd --bind 10.0.0.5 --seeds 10.0.0.1,10.0.0.2 --cluster-key-file /etc/railmap/cluster.key",
            "", "Ports: probe UDP 7245 on cable ports; API TCP 7246; on the management address: cluster TCP 7800,",
            "failure detection TCP 7900 (cluster port + 100), multicast discovery UDP 7247 (only without --seeds).",
            "", "Exit codes: 0 stopped cleanly (SIGTERM, SIGINT), 1 bad flag or config (also --api-socket naming a live daemon's",
            "socket or a file that is not a socket), 2 could not start (a port in use: the message names it), 3 out of memory",
            "(the JVM's -XX:+ExitOnOutOfMemoryError, set by bin/railmapd), 4 still stopping 5 s after SIGTERM: halted."})
public final class Railmapd implements Callable<Integer> {
    private static final System.Logger LOG = System.getLogger(Railmapd.class.getName());
    /** Exit code of a bad flag, flag value or config file. */
    static final int BAD_FLAG = 1;
    /** Exit code when the daemon cannot start (a port in use, no probe socket). */
    static final int CANNOT_START = 2;

    /** The config file read, when {@code --config} is given. */
    private ConfigFile configFile;
    /** The command line as given, to tell its flags from the config file's. */
    private java.util.List<String> arguments = java.util.List.of();

    @Option(names = "--config", paramLabel = "FILE",
            description = "Read defaults for every option from this properties file (keys: the long options without dashes).")
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
                    + "frozen one within 10 s) or 'lab' (faster, for namespaces on one machine). Default: ${DEFAULT-VALUE}.")
    String clusterTiming;

    @Option(names = "--probe-interval-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Hello interval per port in ms, " + ProbeTiming.MIN_INTERVAL_MS + "-" + DaemonConfig.MAX_PROBE_INTERVAL_MS
                    + " (a far end is forgotten after 3.5 intervals of silence). Default: ${DEFAULT-VALUE}.")
    long probeIntervalMs;

    @Option(names = "--link-poll-ms", paramLabel = "MS",
            description = "How often local discovery runs when link events cannot be read (macOS, --sysfs-root, no 'ip' "
                    + "from iproute2), in ms, " + DaemonConfig.MIN_LINK_POLL_MS + "-" + DaemonConfig.MAX_LINK_POLL_MS
                    + ": carrier loss is noticed within this. Default: 500 on Linux, 3000 on macOS.")
    Long linkPollMs;

    @Option(names = "--link-recheck-ms", paramLabel = "MS", defaultValue = "" + DaemonConfig.DEFAULT_LINK_RECHECK_MS,
            description = "On Linux, discovery runs on each link or address change the kernel announces ('ip monitor'), "
                    + "and every MS ms besides, as a safety net, " + DaemonConfig.MIN_LINK_RECHECK_MS + "-"
                    + DaemonConfig.MAX_LINK_RECHECK_MS + ". Default: ${DEFAULT-VALUE}.")
    long linkRecheckMs;

    @Option(names = "--switch-poll-ms", paramLabel = "MS", defaultValue = "" + DaemonConfig.DEFAULT_SWITCH_POLL_MS,
            description = "How often lldpd and infiniband-diags are asked for the switch port at each port's far end, in ms, "
                    + DaemonConfig.MIN_SWITCH_POLL_MS + "-" + DaemonConfig.MAX_SWITCH_POLL_MS + ". Default: ${DEFAULT-VALUE}.")
    long switchPollMs;

    @Option(names = "--rank-scan-ms", paramLabel = "MS|off", defaultValue = "" + DaemonConfig.DEFAULT_RANK_SCAN_MS,
            description = "How often this node's processes are read for the ranks of running collective jobs (docs/jobs.md), in ms, "
                    + DaemonConfig.MIN_RANK_SCAN_MS + "-" + DaemonConfig.MAX_RANK_SCAN_MS + ", or 'off': no process is read and "
                    + "the record holds no ranks. Default: ${DEFAULT-VALUE}.")
    String rankScanMs;

    /** @param args the command line */
    public static void main(String[] args) {
        Logs.install();
        PrintWriter err = new PrintWriter(System.err, true);
        int code = run(commandLine(new Railmapd(), err), args);
        Logs.finish();
        System.exit(code);
    }

    /**
     * The one factory {@code main} and the tests use: railmapd's command line with its exit codes
     * ({@value #BAD_FLAG} for a bad flag, a bad value or a bad config file; {@value #CANNOT_START} when
     * the daemon cannot start) and one-line errors.
     *
     * @param railmapd the command object
     * @param err      where errors go
     * @return the command line
     */
    static CommandLine commandLine(Railmapd railmapd, PrintWriter err) {
        CommandLine cmd = new CommandLine(railmapd);
        cmd.setErr(err);
        cmd.setUsageHelpWidth(100);
        cmd.setExecutionExceptionHandler((e, c, parsed) -> {
            boolean badValue = e instanceof IllegalArgumentException;
            c.getErr().println("railmapd: " + e.getMessage() + (badValue ? railmapd.fromConfig(e.getMessage()) : ""));
            return badValue ? BAD_FLAG : CANNOT_START;
        });
        cmd.setParameterExceptionHandler((e, args) -> {
            PrintWriter out = e.getCommandLine().getErr();
            String option = e.getArgSpec() instanceof CommandLine.Model.OptionSpec o ? o.longestName() : "";
            // picocli's message quotes the argument as given
            out.println("railmapd: " + Names.escape(e.getMessage(), 512) + railmapd.fromConfig(option));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, out)) {
                out.println("Try 'railmapd --help' for usage.");
            }
            return BAD_FLAG;
        });
        return cmd;
    }

    /**
     * Reads {@code --config FILE}, when given, into the flags' defaults, then parses and runs.
     *
     * @param cmd  a command line from {@link #commandLine}
     * @param args the arguments
     * @return the exit code
     */
    static int run(CommandLine cmd, String[] args) {
        String file = configFile(args);
        if (file != null) {
            Railmapd railmapd = cmd.getCommand();
            try {
                railmapd.configFile = ConfigFile.read(Path.of(file), cmd);
            } catch (IllegalArgumentException e) {
                cmd.getErr().println("railmapd: " + e.getMessage());
                return BAD_FLAG;
            }
            railmapd.arguments = java.util.List.of(args);
            cmd.setDefaultValueProvider(railmapd.configFile.defaults());
        }
        return cmd.execute(args);
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

    /**
     * @param message an error message, which starts with the flag it is about when it is about one
     * @return {@code " (from --config FILE)"} when that flag's value came from the config file, else nothing
     */
    private String fromConfig(String message) {
        if (configFile == null || message == null) {
            return "";
        }
        java.util.regex.Matcher flag = java.util.regex.Pattern.compile("^--[a-z-]+").matcher(message);
        if (!flag.find() || !configFile.sets(flag.group())
                || arguments.stream().anyMatch(a -> a.equals(flag.group()) || a.startsWith(flag.group() + "="))) {
            return "";
        }
        return " (from --config " + Names.escape(configFile.file().toString(), 256) + ")";
    }

    /**
     * @return the configuration the flags describe
     * @throws IllegalArgumentException naming the flag when a value is malformed or out of its range
     */
    DaemonConfig daemonConfig() {
        String nodeName = discovery.node();
        Names.node("--cluster", cluster);
        InetSocketAddress apiAddress = apiAddress();
        if (apiSocket != null) {
            DiscoveryOptions.unixSocketPath("--api-socket", apiSocket);
        }
        within("--probe-interval-ms", probeIntervalMs, ProbeTiming.MIN_INTERVAL_MS, DaemonConfig.MAX_PROBE_INTERVAL_MS);
        boolean mac = Sources.onMac() && discovery.sysfsRoot().isEmpty();
        long poll = linkPollMs != null ? linkPollMs : (mac ? 3000 : 500);
        within("--link-poll-ms", poll, DaemonConfig.MIN_LINK_POLL_MS, DaemonConfig.MAX_LINK_POLL_MS);
        within("--link-recheck-ms", linkRecheckMs, DaemonConfig.MIN_LINK_RECHECK_MS, DaemonConfig.MAX_LINK_RECHECK_MS);
        within("--switch-poll-ms", switchPollMs, DaemonConfig.MIN_SWITCH_POLL_MS, DaemonConfig.MAX_SWITCH_POLL_MS);
        ProbeTiming timing = ProbeTiming.DEFAULTS.withIntervals(probeIntervalMs, Math.max(ProbeTiming.MIN_INTERVAL_MS, probeIntervalMs / 4));
        return new DaemonConfig(cluster, discovery.settings(nodeName), apiAddress.getHostString(), apiAddress.getPort(),
                Optional.ofNullable(apiSocket), timing, poll, linkRecheckMs, switchPollMs, member(nodeName), rankScan(rankScanMs));
    }

    /**
     * {@code --rank-scan-ms MS|off}.
     *
     * @param value the flag's value: a number of ms, or {@code off} (any case), spaces around ignored
     * @return the interval in ms; empty for {@code off}
     * @throws IllegalArgumentException naming the flag when the value is neither, or the number is outside
     *                                  {@value DaemonConfig#MIN_RANK_SCAN_MS}-{@value DaemonConfig#MAX_RANK_SCAN_MS}
     */
    static OptionalLong rankScan(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase("off")) {
            return OptionalLong.empty();
        }
        if (!v.matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException("--rank-scan-ms \"" + Names.escape(value, 80) + "\" is neither a number of ms nor off: give"
                    + " e.g. " + DaemonConfig.DEFAULT_RANK_SCAN_MS + ", or off to read no process");
        }
        long ms = Long.parseLong(v);
        within("--rank-scan-ms", ms, DaemonConfig.MIN_RANK_SCAN_MS, DaemonConfig.MAX_RANK_SCAN_MS);
        return OptionalLong.of(ms);
    }

    /** {@code --api ADDR:PORT}: an IP literal of this machine (or the wildcard), IPv6 in brackets, and a port 0–65535. */
    private InetSocketAddress apiAddress() {
        String shown = "--api \"" + Names.escape(api) + "\"";
        int colon = api.lastIndexOf(':');
        String port = colon < 0 ? "" : api.substring(colon + 1);
        if (colon <= 0 || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException(shown + " is not ADDR:PORT with a port 0-65535, e.g. 127.0.0.1:7246 or [::1]:7246");
        }
        String host = api.substring(0, colon);
        boolean bracketed = host.startsWith("[") && host.endsWith("]");
        if (host.indexOf(':') >= 0 && !bracketed) {
            throw new IllegalArgumentException(shown + " has an IPv6 address without brackets: write [ADDR]:PORT, e.g. [::1]:7246");
        }
        InetAddress address = ManagementAddress.literal("--api", host);
        if (!address.isAnyLocalAddress()) {
            ManagementAddress.requireLocal("--api", host, address);
        }
        return InetSocketAddress.createUnresolved(bracketed ? host.substring(1, host.length() - 1) : host, Integer.parseInt(port));
    }

    private static void within(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(flag + " " + value + " is outside " + min + "-" + max);
        }
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
        // The hook is in place before start: the API answers while start still runs, and a SIGTERM then must stop the
        // daemon cleanly (exit 0), not end the JVM with 143. It waits for start to end; after a failed start it does
        // nothing (the exit code is start's).
        CompletableFuture<Boolean> started = new CompletableFuture<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (startedWithin(started, START_BOUND_MS)) {
                StopDeadline.run(daemon::stop, StopDeadline.DEADLINE_MS, Runtime.getRuntime()::halt);
            }
        }, "railmapd-shutdown"));
        try {
            daemon.start();
            started.complete(true);
        } catch (RuntimeException e) {
            started.complete(false);
            throw e;
        }
        new CountDownLatch(1).await(); // the shutdown hook ends the process
        return 0;
    }

    /** The longest a stop signal waits for a start still running (start's own steps are bounded by 30 s each), in ms. */
    private static final long START_BOUND_MS = 120_000;

    /** @return whether start ended well within the bound; false after a failed start, a timeout or an interrupt */
    private static boolean startedWithin(CompletableFuture<Boolean> started, long boundMs) {
        try {
            return started.get(boundMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Prints the version from the jar manifest ({@code Implementation-Version}, the Maven project version), then the Java that runs it ({@link JavaRuntime}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Railmapd.class.getPackage().getImplementationVersion();
            return new String[] {"railmapd " + (v == null ? "(development build)" : v), JavaRuntime.describe()};
        }
    }
}
