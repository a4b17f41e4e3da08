package io.railmap.daemon;

import io.railmap.daemon.cluster.RecordBurst;
import io.railmap.daemon.testing.SyntheticRecords;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A test main: a real railmapd ({@link Daemon}, railmapd's own flags and log) in this JVM, which a
 * test runs in a network namespace with {@code DaemonProcess.start(..., BurstNode.class, flags)} and
 * drives through standard input, one command a line:
 * <ul>
 *   <li>{@code burst N THREADS}: N synthetic records ({@link SyntheticRecords#ring}) arrive at the
 *       daemon's cluster member as a merge delivers them ({@link RecordBurst}); logs
 *       {@code burst-node: N records arrived in T ms, R rejected};</li>
 *   <li>{@code lateness}: logs {@code burst-node: event loops late by at most T ms (loop: T, ...)}, the
 *       most a timer on each of the daemon's Vert.x event loops (where the probe's hello timers, its
 *       receive path and the API run) fired late since the previous {@code lateness}.</li>
 * </ul>
 * The end of standard input or SIGTERM stops the daemon as railmapd's would.
 */
public final class BurstNode {
    /** Period of the timer that measures each event loop, in ms. */
    private static final long TICK_MS = 10;
    private static final System.Logger LOG = System.getLogger(BurstNode.class.getName());
    private static final Map<String, Long> LATE_NS = new ConcurrentHashMap<>();

    private BurstNode() {
    }

    public static void main(String[] args) throws Exception {
        Logs.install();
        Railmapd flags = new Railmapd();
        Railmapd.commandLine(flags, new PrintWriter(System.err, true)).parseArgs(args);
        Daemon daemon = new Daemon(flags.daemonConfig());
        daemon.start();
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::stop, "burst-node-shutdown"));
        // one instance per event loop: Vert.x hands out its loops in turn
        int loops = 0;
        for (var loop : ((io.vertx.core.internal.VertxInternal) daemon.vertx()).nettyEventLoopGroup()) {
            loops++;
        }
        daemon.vertx().deployVerticle(LoopTimer::new, new DeploymentOptions().setInstances(loops)).await(10, TimeUnit.SECONDS);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("burst") && words.length == 3) {
                int count = Integer.parseInt(words[1]);
                long start = System.nanoTime();
                long rejected = RecordBurst.arrive(daemon.cluster(), SyntheticRecords.ring(count, 1), Integer.parseInt(words[2]));
                LOG.log(System.Logger.Level.INFO, "burst-node: " + count + " records arrived in "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms, " + rejected + " rejected");
            } else if (words[0].equals("lateness")) {
                Map<String, Long> late = new TreeMap<>();
                LATE_NS.keySet().forEach(loop -> late.put(loop, TimeUnit.NANOSECONDS.toMillis(LATE_NS.put(loop, 0L))));
                LOG.log(System.Logger.Level.INFO, "burst-node: event loops late by at most "
                        + late.values().stream().mapToLong(Long::longValue).max().orElse(0) + " ms " + late);
            }
        }
        System.exit(0);
    }

    /** Fires every {@value #TICK_MS} ms on its event loop and keeps the most it fired late. */
    private static final class LoopTimer extends VerticleBase {
        private long last;

        @Override
        public Future<?> start() {
            last = System.nanoTime();
            vertx.setPeriodic(TICK_MS, id -> {
                long now = System.nanoTime();
                long late = now - last - TimeUnit.MILLISECONDS.toNanos(TICK_MS);
                last = now;
                LATE_NS.merge(Thread.currentThread().getName(), Math.max(0, late), Math::max);
            });
            return Future.succeededFuture();
        }
    }
}
