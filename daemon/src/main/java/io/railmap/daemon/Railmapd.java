package io.railmap.daemon;

import io.railmap.daemon.discovery.InterfaceSelection;
import io.railmap.daemon.discovery.PortSources;
import io.railmap.daemon.probe.ProbeTiming;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code railmapd}: the per-node daemon. Flags may also come from a properties file ({@code --config}). */
@Command(name = "railmapd", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The railmap daemon: discovers this node's RDMA, Thunderbolt and selected Ethernet ports, learns who is "
                + "at the far end of each cable with a link-local probe, and serves records, snapshots, matrices and checks "
                + "over HTTP.",
        footer = {"", "Config file: --config FILE reads Java properties whose keys are the long option names without dashes,",
            "e.g. 'interfaces=veth*' or 'probe-interval-ms=250'; flags on the command line win.",
            "", "Example:", "  railmapd --node studio-a --interfaces 'en*' --api 127.0.0.1:7246",
            "", "Exit codes: 0 stopped cleanly, 1 bad flag or config, 2 could not start (port in use, no probe socket)."})
public final class Railmapd implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "Read defaults for every option from this properties file.")
    Path config;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name. Default: the host name up to the first dot.")
    String node;

    @Option(names = "--interfaces", paramLabel = "GLOBS",
            description = "Netdevs without RDMA to take as ports, comma-separated globs ('veth*,en*'); '!glob' leaves a port out. "
                    + "RDMA ports are always taken. Default: RDMA ports only.")
    String interfaces;

    @Option(names = "--api", paramLabel = "ADDR:PORT", defaultValue = DaemonConfig.DEFAULT_API_HOST + ":" + DaemonConfig.DEFAULT_API_PORT,
            description = "Where the HTTP API listens. Default: ${DEFAULT-VALUE} (this machine only).")
    String api;

    @Option(names = "--api-socket", paramLabel = "PATH",
            description = "Also serve the API on this Unix domain socket (reachable from every network namespace).")
    Path apiSocket;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = DaemonConfig.DEFAULT_CLUSTER,
            description = "Cluster name; probes from other clusters are dropped. Default: ${DEFAULT-VALUE}.")
    String cluster;

    @Option(names = "--probe-interval-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Hello interval per port in ms (a far end is forgotten after 3.5 intervals of silence). Default: ${DEFAULT-VALUE}.")
    long probeIntervalMs;

    @Option(names = "--link-poll-ms", paramLabel = "MS",
            description = "How often local discovery runs, in ms. Default: 500 on Linux, 3000 on macOS.")
    Long linkPollMs;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Read sysfs under DIR instead of / (tests).")
    Path sysfsRoot;

    @Option(names = "--macos-capture", paramLabel = "DIR", description = "Read macOS command captures from DIR (tests).")
    Path macosCapture;

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
        boolean mac = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac") && sysfsRoot == null;
        long poll = linkPollMs != null ? linkPollMs : (mac ? 3000 : 500);
        if (probeIntervalMs < ProbeTiming.MIN_INTERVAL_MS) {
            throw new IllegalArgumentException("--probe-interval-ms must be at least " + ProbeTiming.MIN_INTERVAL_MS);
        }
        ProbeTiming timing = ProbeTiming.DEFAULTS.withIntervals(probeIntervalMs, Math.max(ProbeTiming.MIN_INTERVAL_MS, probeIntervalMs / 4));
        return new DaemonConfig(node != null ? node : PortSources.hostname(), cluster, InterfaceSelection.parse(interfaces), host,
                Integer.parseInt(api.substring(colon + 1)), Optional.ofNullable(apiSocket), timing, poll, Optional.ofNullable(sysfsRoot),
                Optional.ofNullable(macosCapture));
    }

    @Override
    public Integer call() throws InterruptedException {
        DaemonConfig cfg = daemonConfig();
        Daemon daemon = new Daemon(cfg);
        daemon.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemon.stop();
            Logs.finish();
            stopped.countDown();
        }, "railmapd-shutdown"));
        stopped.await();
        return 0;
    }
}
