package io.railmap.bench;

import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.matrix.codec.SnapshotCodec;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * Scale figures of the daemon's cluster (Linux; a built checkout): N members of the real
 * {@code io.railmap.daemon.cluster.Cluster} (JGroups over TCP_NIO2, the daemon's own stack, timing and
 * cluster key), each with its own loopback address ({@code 127.77.x.y}) and a synthetic Mac's record
 * of 4 to 8 Thunderbolt ports ({@link SyntheticCluster}, about 2.7 KB of JSON), spread over worker
 * JVMs ({@link ClusterWorker}; the OS caps the file descriptors of one process, and each member holds
 * a TCP connection to every other). Two members run alone in a JVM of their own, to be killed and
 * frozen. With {@code --in-process}, every member runs in one worker JVM over JGroups' SHARED_LOOPBACK
 * ({@link InProcessStack}: no connection between members, so sizes beyond what file descriptors and
 * per-connection costs allow), and a member is killed or frozen in that JVM by dropping its traffic.
 * Per size it prints:
 * <ul>
 *   <li>cold convergence: from telling every member to start at once until each holds every record;</li>
 *   <li>record change: from one member's record changing until each holds the new version;</li>
 *   <li>member killed: from SIGKILL of one member's JVM until no member holds its record;</li>
 *   <li>member frozen: from SIGSTOP of one until no member holds its record (heartbeat timeout);</li>
 *   <li>idle cost: CPU time of every JVM over a quiet period, per member, and RSS and threads.</li>
 * </ul>
 * Each figure is good to {@value ClusterWorker#POLL_MS} ms (how often workers look). Arguments:
 * {@code [--per-jvm M] [--timing default|lab] [--join-ms J] [--no-key] [--java PATH] [--idle-s S] [--timeout-s T]
 * [--seeds K] [--in-process] [--one-by-one | --waves W] [--log-failure-detection] SIZE...} (defaults: 64 members per JVM, default timing (with its join
 * timeout unless {@code --join-ms} gives one, in ms), a cluster key, the
 * {@code java} running this, 20 s idle, 300 s per wait, the first 3 members as every member's seeds (0:
 * all of them), TCP between worker JVMs, every member started at once rather than each once the previous one has a view or W
 * at a time, each wave once the members started hold each other's records ({@code --waves}, in one JVM only); sizes
 * 64 256). {@code --help} prints them; a bad one (a size outside 5 to {@value #MAX_SIZE}, {@code --seeds} below 0,
 * another number below 1, a timing not named, no {@code java} at {@code --java}) is one line naming it on standard
 * error and exit code 1, before anything starts.
 * Workers run with the daemon's JVM options (serial GC, C1 only, 512 KB stacks); with
 * {@code --java} of Java 21 or newer JGroups runs its thread pool on virtual threads.
 */
@Command(name = "ClusterBench", sortOptions = false,
        description = "Scale figures of the daemon's cluster: N members of its JGroups cluster on loopback addresses, spread over"
                + " worker JVMs; per size, cold convergence, a record change, a member killed and one frozen, and the idle cost.",
        footer = {"", "Exit codes: 0 done, 1 a bad argument (named on standard error)."})
public final class ClusterBench implements BenchCommandLine.Checked {
    private static final int PORT = 17800;
    /** The most members: each has an address {@code 127.77.(i / 250).(i % 250 + 1)}. */
    static final int MAX_SIZE = 256 * 250;

    @Option(names = "--per-jvm", paramLabel = "M", description = "Members per worker JVM (default: ${DEFAULT-VALUE}).")
    int perJvm = 64;
    @Option(names = "--timing", paramLabel = "default|lab", description = "The cluster's timing preset (default: ${DEFAULT-VALUE}).")
    String timing = "default";
    @Option(names = "--join-ms", paramLabel = "J", description = "The join timeout in ms (default: the timing's own).")
    long joinMs;
    @Option(names = "--no-key", description = "Run without a cluster key (default: a random key per size).")
    boolean noKey;
    @Option(names = "--java", paramLabel = "PATH", description = "The java that runs the workers (default: the one running this, ${DEFAULT-VALUE}).")
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    @Option(names = "--idle-s", paramLabel = "S", description = "The quiet period the idle cost is measured over, in s (default: ${DEFAULT-VALUE}).")
    int idleS = 20;
    @Option(names = "--timeout-s", paramLabel = "T", description = "How long each wait may take, in s (default: ${DEFAULT-VALUE}).")
    int timeoutS = 300;
    @Option(names = "--seeds", paramLabel = "K", description = "The first K members are every member's seeds; 0: all of them (default: ${DEFAULT-VALUE}).")
    int seeds = 3;
    @Option(names = "--in-process", description = "Every member in one JVM over JGroups' SHARED_LOOPBACK instead of TCP (InProcessStack);"
            + " a member is killed and frozen by dropping its traffic.")
    boolean inProcess;
    @Option(names = "--log-failure-detection", description = "Log what JGroups' failure detectors do (FD_SOCK2's connections and"
            + " suspicions, FD_ALL3's, VERIFY_SUSPECT2's) in each worker's log.")
    boolean logFailureDetection;
    @Option(names = "--one-by-one", description = "Start each member once the previous one has a view (default: every member at once).")
    boolean oneByOne;
    @Option(names = "--waves", paramLabel = "W", description = "With --in-process: start the members W at a time, each wave once every"
            + " member started holds the record of every member started (default: every member at once).")
    int waves;
    @Parameters(paramLabel = "SIZE", description = "Cluster sizes to measure, in members, 5 to " + MAX_SIZE + " (default: 64 256).")
    List<Integer> sizes = new ArrayList<>(List.of(64, 256));
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    ClusterBench() {
    }

    /** @param args see the class comment; {@code --help} prints them */
    public static void main(String[] args) throws Exception {
        ClusterBench bench = new ClusterBench();
        OptionalInt exit = BenchCommandLine.parse(bench, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        Path logs = Files.createTempDirectory("railmap-cluster-bench");
        System.out.println("worker logs in " + logs);
        for (int n : bench.sizes) {
            bench.measure(n, logs);
        }
    }

    @Override
    public void check(CommandLine line) {
        BenchCommandLine.atLeast(line, "option '--per-jvm'", perJvm, 1, "members per worker JVM");
        try {
            ClusterTiming.preset(timing);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(line, "Invalid value for option '--timing': " + e.getMessage());
        }
        if (line.getParseResult().hasMatchedOption("--join-ms")) {
            BenchCommandLine.atLeast(line, "option '--join-ms'", joinMs, 1, "the join timeout, in ms");
        }
        if (!runnable(java)) {
            throw new ParameterException(line, "Invalid value for option '--java': " + java + " is not an executable file"
                    + (java.contains("/") ? "" : " on the PATH") + "; give the path of a java command, e.g. /usr/lib/jvm/java-21/bin/java");
        }
        BenchCommandLine.atLeast(line, "option '--idle-s'", idleS, 1, "the quiet period, in seconds");
        BenchCommandLine.atLeast(line, "option '--timeout-s'", timeoutS, 1, "the longest wait, in seconds");
        BenchCommandLine.atLeast(line, "option '--seeds'", seeds, 0, "a count of members; 0: all of them");
        if (line.getParseResult().hasMatchedOption("--waves")) {
            BenchCommandLine.atLeast(line, "option '--waves'", waves, 1, "members per wave");
            if (!inProcess || oneByOne) {
                throw new ParameterException(line, "Option '--waves' needs --in-process (every member in one worker) and not --one-by-one");
            }
        }
        for (int n : sizes) {
            BenchCommandLine.within(line, "SIZE", n, 5, MAX_SIZE, "members: 3 seeds and 2 to kill and freeze, each on its own address");
        }
    }

    /** @return whether a process can be started with {@code command}: a path, or a name found on the {@code PATH} as a shell does */
    static boolean runnable(String command) {
        if (command.contains("/")) {
            return Files.isRegularFile(Path.of(command)) && Files.isExecutable(Path.of(command));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return true;
            }
        }
        return false;
    }

    private void measure(int n, Path logs) throws Exception {
        String secret = noKey ? "none" : Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
        int regular = n - 2;
        List<WorkerProcess> workers = new ArrayList<>();
        List<WorkerProcess> all = new ArrayList<>();
        SyntheticCluster shape = new SyntheticCluster(n, false);
        int recordBytes = SnapshotCodec.tree(shape.record(0, System.currentTimeMillis())).toString().getBytes(StandardCharsets.UTF_8).length;
        try {
            WorkerProcess killed;
            WorkerProcess frozen;
            if (inProcess) {
                workers.add(worker(n, 0, n, secret, logs));
                killed = workers.get(0);
                frozen = workers.get(0);
                all.addAll(workers);
                System.out.printf("%d members in one JVM: JGroups SHARED_LOOPBACK, %s timing%s, %s; records of %d bytes; Java %s%n",
                        n, timing, joinMs > 0 ? " with a " + joinMs + " ms join timeout" : "", noKey ? "no key" : "with a cluster key",
                        recordBytes, workers.get(0).javaVersion());
            } else {
                for (int first = 0; first < regular; first += perJvm) {
                    workers.add(worker(n, first, Math.min(perJvm, regular - first), secret, logs));
                }
                killed = worker(n, n - 2, 1, secret, logs);
                frozen = worker(n, n - 1, 1, secret, logs);
                all.addAll(workers);
                all.add(killed);
                all.add(frozen);
                System.out.printf("%d members: %d JVMs of up to %d, and 2 alone; JGroups TCP_NIO2 on loopback, %s timing%s, %s, seeds %s;"
                                + " records of %d bytes; workers on Java %s%n",
                        n, workers.size(), perJvm, timing, joinMs > 0 ? " with a " + joinMs + " ms join timeout" : "", noKey ? "no key" : "with a cluster key", seeds == 0 ? "all" : "the first " + seeds,
                        recordBytes, workers.get(0).javaVersion());
            }

            long[] idle = usage(all);
            long start = System.nanoTime();
            if (oneByOne) {
                for (WorkerProcess w : all) {
                    w.send("start one-by-one");
                    w.answer(timeoutS * 1000);
                }
            } else if (waves > 0) {
                all.forEach(w -> w.send("start waves " + waves + " " + timeoutS * 1000L));
            } else {
                all.forEach(w -> w.send("start"));
            }
            all.forEach(w -> w.send("await-count " + n + " " + timeoutS * 1000));
            String cold = awaitAll(all, !oneByOne);
            if (cold != null) {
                System.out.printf("  cold convergence   not within %d s: %s (%.2f cores busy meanwhile)%n", timeoutS, cold,
                        (usage(all)[0] - idle[0]) / 1e9 / seconds(start));
                return;
            }
            double took = seconds(start);
            long[] converged = usage(all);
            System.out.printf("  cold convergence   %7.2f s  from starting every member %s until each holds all %d records"
                            + " (%.2f cores busy meanwhile)%n",
                    took, oneByOne ? "one by one (each once the previous one has a view)"
                            : waves > 0 ? waves + " at a time (each wave once every member started holds every started member's record)" : "at once", n,
                    (converged[0] - idle[0]) / 1e9 / took);

            TimeUnit.SECONDS.sleep(5);
            long[] before = usage(all);
            long idleStart = System.nanoTime();
            TimeUnit.SECONDS.sleep(idleS);
            long[] after = usage(all);
            double wallNs = System.nanoTime() - idleStart;
            System.out.printf("  idle cost          %7.2f %% of one core per member over %d s; %.1f MB RSS and %.1f threads per member"
                            + " (%.0f MB, %d threads per JVM of %d)%n",
                    100.0 * (after[0] - before[0]) / wallNs / n, idleS, after[1] / 1024.0 / n, (double) after[2] / n,
                    after[3] / 1024.0, after[4], inProcess ? n : Math.min(perJvm, regular));

            int changer = 3;
            long changed = System.nanoTime();
            workers.get(changer / perJvm).send("change " + changer);
            String version = workers.get(changer / perJvm).answer(timeoutS * 1000).replace("version ", "");
            all.forEach(w -> w.send("await-version " + SyntheticCluster.node(changer) + " " + version + " " + timeoutS * 1000));
            report("record change", awaitAll(all, false), changed, "from one member's record changing until each holds the new version");

            long kill = System.nanoTime();
            halt(killed, n - 2, true);
            List<WorkerProcess> alive = new ArrayList<>(workers);
            if (!workers.contains(frozen)) {
                alive.add(frozen);
            }
            alive.forEach(w -> w.send("await-absent " + SyntheticCluster.node(n - 2) + " " + timeoutS * 1000));
            report("member killed", awaitAll(alive, false), kill, "from SIGKILL of a member until no member holds its record");

            long freeze = System.nanoTime();
            halt(frozen, n - 1, false);
            workers.forEach(w -> w.send("await-absent " + SyntheticCluster.node(n - 1) + " " + timeoutS * 1000));
            report("member frozen", awaitAll(workers, false), freeze, "from SIGSTOP of a member until no member holds its record");
            if (!inProcess) {
                frozen.kill(); // a stopped JVM would not answer "stop"
            }
        } finally {
            all.parallelStream().forEach(WorkerProcess::close);
        }
    }

    /**
     * Kills (SIGKILL) or stops (SIGSTOP) a member: the JVM it runs alone in, or, with
     * {@code --in-process}, the member inside the one JVM ({@link InProcessStack}).
     */
    private void halt(WorkerProcess worker, int member, boolean kill) throws Exception {
        if (inProcess) {
            worker.send((kill ? "kill " : "freeze ") + member);
            worker.answer(30_000);
        } else if (kill) {
            worker.kill();
        } else {
            new ProcessBuilder("kill", "-STOP", Long.toString(worker.pid())).inheritIO().start().waitFor();
        }
    }

    private WorkerProcess worker(int n, int first, int count, String secret, Path logs) throws Exception {
        long physicalMb = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize() >> 20;
        long heapMb = Math.min(64 + (long) count * (8 + n / 8), physicalMb * 3 / 4);
        // Not the daemon's collector (Serial, bin/railmapd): a worker holds many members, and a stop-the-world collection
        // stops all of them at once, for as long as Serial takes over a heap of gigabytes on 2 busy cores, where a
        // daemon collects its own heap of tens of MB. G1 with a pause goal keeps that out of the failure detectors'
        // figures (in one JVM of 256 members: 423 suspicions with Serial, none with G1). Its log is beside the worker's.
        List<String> jvm = new ArrayList<>(List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=100", "-XX:TieredStopAtLevel=1", "-Xss512k",
                "-Xmx" + heapMb + "m", "-XX:+ExitOnOutOfMemoryError", "-Xlog:gc:file=" + logs.resolve(n + "-" + first + "-gc.log")));
        if (logFailureDetection) {
            jvm.add("-D" + ClusterWorker.LOG_FAILURE_DETECTION + "=true");
        }
        List<String> args = List.of(Integer.toString(n), Integer.toString(first), Integer.toString(count), Integer.toString(PORT),
                seedList(n), timing + (joinMs > 0 ? ":" + joinMs : ""), secret, inProcess ? "in-process" : "tcp");
        String name = "worker " + first + "-" + (first + count - 1) + " of " + n;
        return new WorkerProcess(java, jvm, args, logs.resolve(n + "-" + first + ".log"), name, 120_000);
    }

    /** @return the members every member is given as seeds: the first {@code --seeds} (all when 0), joined by commas */
    private String seedList(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < (seeds == 0 ? n : Math.min(seeds, n)); i++) {
            out.add(Integer.toString(i));
        }
        return String.join(",", out);
    }

    /**
     * Reads one answer (two with {@code started} first) from every worker. A worker takes its next
     * command once the one before is done, so the wait for the second answers (each bounded by
     * {@code --timeout-s} in the worker) starts once every first answer is in: a start that took long
     * (joins that timed out and were tried again) does not eat into the wait that follows it.
     *
     * @return null when all said ok, else what the ones that did not said
     * @throws IllegalStateException when a worker does not answer within {@code --timeout-s} and a minute
     */
    private String awaitAll(List<WorkerProcess> workers, boolean started) {
        if (started) {
            answers(workers); // "ok" once its members are started
        }
        List<String> problems = answers(workers).stream().filter(a -> !a.equals("ok")).toList();
        return problems.isEmpty() ? null : String.join(", ", problems);
    }

    /** @return one answer from each worker, read within {@code --timeout-s} and a minute for all */
    private List<String> answers(List<WorkerProcess> workers) {
        long deadline = System.nanoTime() + (timeoutS + 60) * 1_000_000_000L;
        List<String> out = new ArrayList<>();
        for (WorkerProcess w : workers) {
            out.add(w.answer(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
        return out;
    }

    private void report(String what, String problem, long since, String meaning) {
        if (problem != null) {
            System.out.printf("  %-18s not within %d s: %s%n", what, timeoutS, problem);
        } else {
            System.out.printf("  %-18s %7.2f s  %s%n", what, seconds(since), meaning);
        }
    }

    /** @return {cpu ns, RSS kB, threads} summed over the workers, then RSS kB and threads of the first */
    private static long[] usage(List<WorkerProcess> workers) {
        long[] sum = new long[5];
        for (int i = 0; i < workers.size(); i++) {
            workers.get(i).send("usage");
            String[] u = workers.get(i).answer(30_000).split(" ");
            for (int k = 0; k < 3; k++) {
                sum[k] += Long.parseLong(u[k + 1]);
            }
            if (i == 0) {
                sum[3] = Long.parseLong(u[2]);
                sum[4] = Long.parseLong(u[3]);
            }
        }
        return sum;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
