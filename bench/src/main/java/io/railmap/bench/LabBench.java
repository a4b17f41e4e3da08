package io.railmap.bench;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.UserError;
import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.Lab;
import io.railmap.lab.LabException;
import io.railmap.lab.LabState;
import io.railmap.lab.LabTopology;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Figures for the lab (needs root on Linux and a built checkout; run from the checkout's top):
 * <ul>
 *   <li>convergence: from starting N daemons until every one holds every record and sees every cable,
 *       for rings of N = 2, 4, 8 nodes with two cables per ring edge (JVM start included);</li>
 *   <li>unplug to matrix: from {@code lab cable down} until no daemon's topology holds the cable;</li>
 *   <li>footprint: in a second lab of the same ring whose daemons run at default timing
 *       ({@code --cluster-timing default}, hellos every 1 s, as a real cluster runs), once every
 *       daemon holds every record and a settling time has passed: each daemon's CPU time over a
 *       fixed idle window as a share of one core, its RSS (at the end, and the most seen in the
 *       window, sampled every second; and its anonymous part) and its threads
 *       ({@link ProcessSample}).</li>
 * </ul>
 * Prints one line per figure. Arguments: {@code [--footprint-only] [--settle-s S] [--idle-s S] N...}:
 * node counts, each 2 to {@value #MAX_NODES} (default 2 4 8); {@code --footprint-only} skips convergence and unplug;
 * {@code --settle-s} is the time from agreement to the idle window in seconds (default
 * {@value #SETTLE_S}: a JVM still compiles the code an idle daemon runs for its first minutes);
 * {@code --idle-s} is the idle window in seconds (default {@value #IDLE_S}). The daemons are {@code bin/railmapd} of the
 * checkout, so {@code RAILMAPD_JAVA_OPTS} in the environment reaches their JVMs (to try a flag).
 * {@code --help} prints the arguments; a bad one (a size out of range, a negative settling time, an
 * idle window below 1 s) is one line naming it on standard error and exit code 1 before any lab is
 * made, as is a checkout without a built {@code bin/railmapd}; a lab that cannot be made here (not
 * root, no iproute2, a lab up already) is one line and exit code 5.
 * Namespaces carry the prefix {@code rmb<pid>}, so two benchmarks on one machine never meet.
 */
public final class LabBench {
    private static final long POLL_MS = 20;
    /** Seconds between agreement at default timing and the start of the idle window. */
    static final int SETTLE_S = 180;
    /** The default idle window, in seconds. */
    static final int IDLE_S = 60;
    /** The most nodes a lab holds (its management addresses are one /24). */
    static final int MAX_NODES = 253;

    private LabBench() {
    }

    /** The command line: {@code [--footprint-only] [--settle-s S] [--idle-s S] N...}. */
    @Command(name = "LabBench", sortOptions = false,
            description = "Figures for the lab (root, Linux, from a built checkout's top): convergence and unplug to matrix in a lab"
                    + " ring of N nodes at lab timing, then the footprint of idle daemons in one at default timing.",
            footer = {"", "Exit codes: 0 done, 1 a bad argument (named on standard error) or no built checkout here, 5 the lab cannot be"
                    + " made here (not root, no iproute2, a lab up already)."})
    static final class Arguments implements BenchCommandLine.Checked {
        @Option(names = "--footprint-only", description = "Skip convergence and unplug: only the footprint.")
        boolean footprintOnly;
        @Option(names = "--settle-s", paramLabel = "S", description = "From agreement to the idle window, in s (default: ${DEFAULT-VALUE}).")
        int settleS = SETTLE_S;
        @Option(names = "--idle-s", paramLabel = "S", description = "The idle window, in s (default: ${DEFAULT-VALUE}).")
        int idleS = IDLE_S;
        @Parameters(paramLabel = "N", description = "Ring sizes, in nodes, 2 to " + MAX_NODES + " (default: 2 4 8).")
        List<Integer> sizes = new ArrayList<>(List.of(2, 4, 8));
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Override
        public void check(CommandLine line) {
            BenchCommandLine.atLeast(line, "option '--settle-s'", settleS, 0, "seconds from agreement to the idle window");
            BenchCommandLine.atLeast(line, "option '--idle-s'", idleS, 1, "the idle window, in seconds");
            for (int n : sizes) {
                BenchCommandLine.within(line, "N", n, 2, MAX_NODES, "nodes in a ring; a lab holds at most " + MAX_NODES);
            }
        }
    }

    /** @param args {@code [--footprint-only] [--settle-s S] [--idle-s S] N...}, e.g. {@code 2 4 8}; {@code --help} prints them */
    public static void main(String[] args) throws Exception {
        Arguments arguments = new Arguments();
        OptionalInt exit = BenchCommandLine.parse(arguments, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        System.setProperty("railmap.home", System.getProperty("railmap.home", Path.of("").toAbsolutePath().toString()));
        System.setProperty("railmap.lab.prefix", "rmb" + ProcessHandle.current().pid());
        System.setProperty("railmap.lab.dir", Files.createTempDirectory("railmap-lab-bench").toString());
        try {
            run(arguments);
        } catch (UserError e) {
            System.err.println("LabBench: " + e.getMessage());
            System.exit(ExitCodes.INPUT);
        } catch (LabException e) {
            System.err.println("LabBench: lab: " + e.getMessage());
            System.exit(ExitCodes.LAB);
        }
    }

    private static void run(Arguments arguments) throws Exception {
        Lab lab = LabSetup.lab();
        Lab atDefaultTiming = new Lab(lab.names(), lab.dir(), c -> defaultTiming(LabSetup.flags(c)));
        try {
            for (int n : arguments.sizes) {
                if (!arguments.footprintOnly) {
                    measure(lab, n);
                }
                footprint(atDefaultTiming, n, arguments.settleS, arguments.idleS);
            }
        } finally {
            lab.down();
        }
    }

    private static void measure(Lab lab, int n) throws Exception {
        LabTopology topology = ring(n);
        long start = System.nanoTime();
        lab.up(topology, LabSetup.daemonCommand());
        while (!LabSetup.agreement(topology, topology.nodes()).reached()) {
            Thread.sleep(POLL_MS);
            if (System.nanoTime() - start > 120_000_000_000L) {
                throw new IllegalStateException("no agreement within 120 s for " + n + " nodes");
            }
        }
        System.out.printf("convergence   %d nodes, %2d cables: %6.2f s from starting the daemons to every record and cable everywhere%n",
                n, topology.cables().size(), (System.nanoTime() - start) / 1e9);

        Cable cable = topology.cables().get(0);
        long pulled = System.nanoTime();
        lab.cable(cable.a(), false);
        while (anyDaemonHolds(topology, cable)) {
            Thread.sleep(POLL_MS);
        }
        System.out.printf("unplug        %d nodes: %6.3f s from pulling %s until no daemon's topology holds it%n",
                n, (System.nanoTime() - pulled) / 1e9, cable);
        lab.cable(cable.a(), true);
        lab.down();
    }

    /**
     * Prints each idle daemon's CPU, RSS and threads at default timing over {@code idleS} seconds,
     * from {@code settleS} seconds after agreement.
     */
    private static void footprint(Lab lab, int n, int settleS, int idleS) throws Exception {
        LabTopology topology = ring(n);
        LabState state = lab.up(topology, LabSetup.daemonCommand());
        long start = System.nanoTime();
        while (!LabSetup.agreement(topology, topology.nodes()).reached()) {
            Thread.sleep(POLL_MS);
            if (System.nanoTime() - start > 120_000_000_000L) {
                throw new IllegalStateException("no agreement at default timing within 120 s for " + n + " nodes");
            }
        }
        Thread.sleep(settleS * 1000L);
        Map<String, ProcessSample> first = new LinkedHashMap<>();
        Map<String, ProcessSample> last = new LinkedHashMap<>();
        Map<String, Long> maxRss = new LinkedHashMap<>();
        Map<String, Long> maxAnon = new LinkedHashMap<>();
        long windowStart = System.nanoTime();
        for (int s = 0; s <= idleS; s++) {
            for (String node : topology.nodes()) {
                ProcessSample sample = ProcessSample.of(state.pids().get(node));
                first.putIfAbsent(node, sample);
                last.put(node, sample);
                maxRss.merge(node, sample.rssKiB(), Math::max);
                maxAnon.merge(node, sample.anonKiB(), Math::max);
            }
            if (s < idleS) {
                Thread.sleep(Math.max(0, (windowStart + (s + 1) * 1_000_000_000L - System.nanoTime()) / 1_000_000));
            }
        }
        double seconds = (System.nanoTime() - windowStart) / 1e9;
        long ticksPerSecond = ProcessSample.ticksPerSecond();
        double cpuSum = 0;
        double cpuMax = 0;
        long rssMax = 0;
        long anonMax = 0;
        int threadsMax = 0;
        for (String node : topology.nodes()) {
            double cpu = 100.0 * (last.get(node).cpuTicks() - first.get(node).cpuTicks()) / ticksPerSecond / seconds;
            cpuSum += cpu;
            cpuMax = Math.max(cpuMax, cpu);
            rssMax = Math.max(rssMax, maxRss.get(node));
            anonMax = Math.max(anonMax, maxAnon.get(node));
            threadsMax = Math.max(threadsMax, last.get(node).threads());
            System.out.printf("footprint     %d nodes, daemon %s: CPU %.2f %% of one core, RSS %.1f MiB (at most %.1f; anonymous %.1f),"
                    + " %d threads (default timing, idle %.0f s from %d s after agreement)%n", n, node, cpu, last.get(node).rssKiB() / 1024.0,
                    maxRss.get(node) / 1024.0, last.get(node).anonKiB() / 1024.0, last.get(node).threads(), seconds, settleS);
        }
        System.out.printf("footprint     %d nodes, per daemon: CPU %.2f %% of one core on average (at most %.2f %%), RSS at most %.1f MiB"
                + " (anonymous at most %.1f MiB), at most %d threads%n", n, cpuSum / n, cpuMax, rssMax / 1024.0, anonMax / 1024.0, threadsMax);
        lab.down();
    }

    /** @return lab flags with the hello interval and cluster timing left at the daemon's defaults */
    static List<String> defaultTiming(List<String> labFlags) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < labFlags.size(); i++) {
            String flag = labFlags.get(i);
            if (flag.equals("--probe-interval-ms")) {
                i++;
            } else if (flag.equals("--cluster-timing")) {
                i++;
                out.add(flag);
                out.add("default");
            } else {
                out.add(flag);
            }
        }
        return out;
    }

    private static boolean anyDaemonHolds(LabTopology topology, Cable cable) {
        for (String node : topology.nodes()) {
            try (DaemonClient client = new DaemonClient(LabSetup.daemonUrl(node))) {
                if (Topology.of(SnapshotCodec.readSnapshot(node, client.get("/v1/snapshot"))).cables().contains(cable)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** n nodes in a ring, two cables per ring edge ({@code nK:pX}); two nodes get two crossed cables. */
    static LabTopology ring(int n) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("n" + i);
        }
        List<Cable> cables = new ArrayList<>();
        if (n == 2) {
            cables.add(new Cable(PortRef.parse("n0:p0"), PortRef.parse("n1:p1")));
            cables.add(new Cable(PortRef.parse("n0:p1"), PortRef.parse("n1:p0")));
        } else {
            for (int i = 0; i < n; i++) {
                int j = (i + 1) % n;
                for (int k = 0; k < 2; k++) {
                    cables.add(new Cable(new PortRef("n" + i, "r" + k), new PortRef("n" + j, "l" + k)));
                }
            }
        }
        return new LabTopology("bench ring of " + n, nodes, cables);
    }
}
