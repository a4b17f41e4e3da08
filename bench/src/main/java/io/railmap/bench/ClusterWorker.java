package io.railmap.bench;

import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.VERIFY_SUSPECT2;

/**
 * One JVM's share of {@link ClusterBench}'s members. Started by the benchmark with
 * {@code SIZE FIRST COUNT PORT SEEDS TIMING KEY TRANSPORT} (members FIRST to FIRST+COUNT-1 of a synthetic
 * cluster of SIZE nodes; SEEDS member numbers joined by commas; TIMING {@code default} or
 * {@code lab}, optionally followed by {@code :MS}, a join timeout in ms; KEY base64 or {@code none};
 * TRANSPORT {@code tcp}, or {@code in-process} when every member of the cluster is in this JVM
 * ({@link InProcessStack})), it prints {@code ready} and its Java version, then answers each command on
 * standard input with one line on standard output:
 * <pre>
 * start [one-by-one]            every member joins, at once      → started
 *                                (or each after the previous one has a view)
 * start waves W MS               W members join at once, the next → started
 *                                W once every member started holds
 *                                every started member's record
 *                                (or MS passed)
 * await-count N MS               every member holds N records     → ok | timeout K/COUNT [(NODE lacks NODE...; ...)]
 * await-version NODE V MS        every member holds NODE at ≥ V   → ok | timeout K/COUNT
 * await-absent NODE MS           no member holds NODE's record    → ok | timeout K/COUNT
 * change I                       member I's record changes        → version V
 * kill I | freeze I              in-process only: member I is     → halted
 *                                killed or stopped, and left out
 *                                of every later await
 * usage                          this JVM's cost so far           → usage CPU_NS RSS_KB THREADS
 * stop                           every member leaves              → stopped (then the JVM exits)
 * </pre>
 * Conditions are looked at every {@value #POLL_MS} ms. Logs go to standard error.
 */
public final class ClusterWorker {
    /** The system property ({@code true}) that makes a worker log what JGroups' failure detectors do. */
    static final String LOG_FAILURE_DETECTION = "railmap.bench.logFailureDetection";
    /** Held here: java.util.logging holds loggers weakly, and a logger collected forgets its level. */
    private static final List<Logger> DETECTOR_LOGGERS = new ArrayList<>();
    /** How often an await looks at the members, in ms: the resolution of every figure. */
    static final long POLL_MS = 20;

    private final int first;
    private final int size;
    private final List<WorkerMember> members = new ArrayList<>();
    /** Members killed or stopped in this JVM: no await looks at them. */
    private final java.util.Set<WorkerMember> halted = new java.util.HashSet<>();
    private final PrintStream out;

    private ClusterWorker(int size, int first, PrintStream out) {
        this.size = size;
        this.first = first;
        this.out = out;
    }

    /** @param args {@code SIZE FIRST COUNT PORT SEEDS TIMING KEY TRANSPORT} */
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but answers on standard output
        io.railmap.daemon.Logs.install();
        if (Boolean.getBoolean(LOG_FAILURE_DETECTION)) {
            logFailureDetection();
        }
        int size = Integer.parseInt(args[0]);
        int first = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        int port = Integer.parseInt(args[3]);
        List<Seed> seeds = new ArrayList<>();
        for (String s : args[4].split(",")) {
            seeds.add(new Seed(WorkerMember.address(Integer.parseInt(s)).getHostAddress(), port));
        }
        String[] preset = args[5].split(":", 2);
        ClusterTiming timing = preset.length == 1 ? ClusterTiming.preset(preset[0])
                : ClusterTiming.preset(preset[0]).withJoinTimeout(Long.parseLong(preset[1]));
        Optional<ClusterKey> key = args[6].equals("none") ? Optional.empty() : Optional.of(ClusterKey.parse("bench key", args[6]));
        boolean inProcess = args[7].equals("in-process");
        SyntheticCluster shape = new SyntheticCluster(size, false);
        ClusterWorker worker = new ClusterWorker(size, first, out);
        for (int i = first; i < first + count; i++) {
            worker.members.add(new WorkerMember(shape, i, port, seeds, timing, key, inProcess));
        }
        out.println("ready " + Runtime.version());
        try {
            worker.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } catch (Exception | Error e) {
            // JGroups' threads would keep the JVM alive without an answer ever coming
            e.printStackTrace();
            System.exit(1);
        }
    }

    /**
     * Logs the debug lines of JGroups' failure detectors: FD_SOCK2 (each connection to a neighbour
     * tried and made, each suspicion and unsuspicion it sends to every member), FD_ALL3 (each member
     * whose heartbeats stopped) and VERIFY_SUSPECT2 (each suspect it asks, and when it gives up).
     */
    private static void logFailureDetection() {
        for (Handler h : Logger.getLogger("").getHandlers()) {
            h.setLevel(Level.ALL);
        }
        // a JGroups protocol logs under its own class's name: the daemon's FD_SOCK2 is its subclass LinearFdSock
        for (String detector : List.of(FD_SOCK2.class.getName(), "io.railmap.daemon.cluster.stack.LinearFdSock", FD_ALL3.class.getName(),
                VERIFY_SUSPECT2.class.getName())) {
            Logger logger = Logger.getLogger(detector);
            logger.setLevel(Level.FINE);
            DETECTOR_LOGGERS.add(logger);
        }
    }

    private void serve(BufferedReader in) throws Exception {
        String line;
        while ((line = in.readLine()) != null) {
            String[] c = line.trim().split(" ");
            switch (c[0]) {
                case "start" -> {
                    if (c.length > 1 && c[1].equals("one-by-one")) {
                        members.forEach(WorkerMember::start);
                    } else if (c.length > 3 && c[1].equals("waves")) {
                        startInWaves(Integer.parseInt(c[2]), Long.parseLong(c[3]));
                    } else {
                        inParallel(members, WorkerMember::start);
                    }
                    out.println("started");
                }
                case "await-count" -> await(Long.parseLong(c[2]), v -> v.size() >= Integer.parseInt(c[1]), () -> lacking(size));
                case "await-version" -> await(Long.parseLong(c[3]), v -> v.getOrDefault(c[1], -1L) >= Long.parseLong(c[2]), () -> "");
                case "await-absent" -> await(Long.parseLong(c[2]), v -> !v.containsKey(c[1]), () -> "");
                case "change" -> out.println("version " + members.get(Integer.parseInt(c[1]) - first).change());
                case "kill", "freeze" -> {
                    WorkerMember m = members.get(Integer.parseInt(c[1]) - first);
                    m.halt(c[0].equals("kill"));
                    halted.add(m);
                    out.println("halted");
                }
                case "usage" -> out.println("usage " + cpuNanos() + " " + status("VmRSS:") + " " + status("Threads:"));
                case "stop" -> {
                    inParallel(members, WorkerMember::close);
                    out.println("stopped");
                    return;
                }
                default -> out.println("error unknown command " + c[0]);
            }
        }
    }

    /**
     * Starts the members {@code wave} at a time, each wave at once and once every member started
     * before it holds the record of every member started (or {@code timeoutMs} passed for that wave:
     * the wait that follows the start then says what is missing).
     */
    private void startInWaves(int wave, long timeoutMs) throws Exception {
        for (int from = 0; from < members.size(); from += wave) {
            int started = Math.min(members.size(), from + wave);
            inParallel(members.subList(from, started), WorkerMember::start);
            List<WorkerMember> running = members.subList(0, started);
            waitUntil(System.nanoTime() + timeoutMs * 1_000_000, () -> running.stream().allMatch(m -> m.versions().size() >= started));
        }
    }

    /**
     * Looks every {@value #POLL_MS} ms until {@code done} holds or the deadline ({@link System#nanoTime})
     * passes.
     *
     * @return whether it held
     */
    private static boolean waitUntil(long deadlineNanos, java.util.function.BooleanSupplier done) throws InterruptedException {
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadlineNanos) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
        return true;
    }

    /** Runs an action on some members at once (joins and leaves each wait on the network). */
    private static void inParallel(List<WorkerMember> some, java.util.function.Consumer<WorkerMember> action) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(some.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (WorkerMember m : some) {
                done.add(pool.submit(() -> action.accept(m)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** Waits until every member's records satisfy {@code holds}; on timeout, says how many do and {@code detail}. */
    private void await(long timeoutMs, Predicate<Map<String, Long>> holds, java.util.function.Supplier<String> detail) throws InterruptedException {
        if (waitUntil(System.nanoTime() + timeoutMs * 1_000_000, () -> satisfied(holds) == members.size() - halted.size())) {
            out.println("ok");
        } else {
            out.println("timeout " + satisfied(holds) + "/" + (members.size() - halted.size()) + detail.get());
        }
    }

    /** @return how many members not halted hold records that satisfy {@code holds} */
    private int satisfied(Predicate<Map<String, Long>> holds) {
        int satisfied = 0;
        for (WorkerMember m : members) {
            if (!halted.contains(m) && holds.test(m.versions())) {
                satisfied++;
            }
        }
        return satisfied;
    }

    /**
     * @param n the cluster's size
     * @return for at most 3 members that do not hold every record, which records (at most 5 each)
     *         they lack, as {@code " (node7 lacks node12 node40)"}; empty when every member holds all
     */
    private String lacking(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < members.size() && out.size() < 3; i++) {
            Map<String, Long> held = members.get(i).versions();
            List<String> missing = new ArrayList<>();
            for (int k = 0; k < n && missing.size() < 5; k++) {
                if (!held.containsKey(SyntheticCluster.node(k))) {
                    missing.add(SyntheticCluster.node(k));
                }
            }
            if (!missing.isEmpty()) {
                out.add(SyntheticCluster.node(first + i) + " lacks " + String.join(" ", missing));
            }
        }
        return out.isEmpty() ? "" : " (" + String.join("; ", out) + ")";
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** @return a number field of /proc/self/status ({@code VmRSS:} in kB, {@code Threads:}), -1 when unreadable */
    private static long status(String field) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith(field)) {
                    return Long.parseLong(l.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
