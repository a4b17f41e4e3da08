package io.railmap.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One member of the cluster benchmark: a daemon's {@link Engine} holding a synthetic node's record
 * ({@link SyntheticCluster}) and its real {@link Cluster} member (JGroups over TCP_NIO2 on its own
 * loopback address, or over SHARED_LOOPBACK with every member in this JVM: {@link InProcessStack}),
 * without discovery, probe or HTTP API. What it holds is read from the engine
 * ({@link Engine#versions}), again only after the engine said something changed.
 */
final class WorkerMember implements AutoCloseable {
    /** The cluster name the benchmark's members share. */
    static final String CLUSTER = "railmap-bench";

    private final Engine engine;
    private final Cluster cluster;
    private final List<Port> ports;
    private volatile boolean dirty = true;
    private Map<String, Long> versions = Map.of();
    private boolean linkDown;
    /** The in-process stack, to freeze or kill the member; empty over TCP. */
    private final Optional<InProcessStack> inProcess;

    /**
     * @param shape  the synthetic cluster whose node {@code index} this member is
     * @param index  the node
     * @param port   the cluster port every member uses (on its own address)
     * @param seeds  the members every member asks when starting
     * @param timing failure detection and merge timing
     * @param key    the cluster key, if the cluster runs with one
     * @param inProcess whether every member is in this JVM ({@link InProcessStack}) rather than over TCP
     */
    WorkerMember(SyntheticCluster shape, int index, int port, List<Seed> seeds, ClusterTiming timing, Optional<ClusterKey> key, boolean inProcess) {
        InetAddress bind = address(index);
        engine = new Engine(SyntheticCluster.node(index), Optional.of(bind.getHostAddress()));
        ports = shape.portsOf(index);
        engine.ports(ports, Optional.of(true));
        engine.neighbours(neighbours(false));
        engine.onChange(() -> dirty = true);
        ClusterConfig config = new ClusterConfig(CLUSTER, SyntheticCluster.node(index), bind, port, seeds, key, timing);
        this.inProcess = inProcess ? Optional.of(new InProcessStack()) : Optional.empty();
        cluster = inProcess ? new Cluster(config, engine, new SimpleMeterRegistry(), this.inProcess.get())
                : new Cluster(config, engine, new SimpleMeterRegistry());
    }

    /**
     * @param index a member
     * @return its loopback address, {@code 127.77.(index / 250).(index % 250 + 1)} (Linux answers on
     *         all of 127.0.0.0/8)
     */
    static InetAddress address(int index) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 77, (byte) (index / 250), (byte) (index % 250 + 1)});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an address", e);
        }
    }

    private Map<String, List<PortRef>> neighbours(boolean firstDown) {
        Map<String, List<PortRef>> out = new HashMap<>();
        for (int k = firstDown ? 1 : 0; k < ports.size(); k++) {
            out.put(ports.get(k).netdev(), ports.get(k).neighbours());
        }
        return out;
    }

    /** Joins the cluster; returns once this member has a view. */
    void start() {
        cluster.start();
    }

    /**
     * Changes this member's record as a cable pulled or plugged back does: its first port's far end
     * goes away or comes back.
     *
     * @return the new version of the record
     */
    long change() {
        linkDown = !linkDown;
        engine.neighbours(neighbours(linkDown));
        return engine.record().version();
    }

    /**
     * @return the version of each record this member holds, by node (its own included): read from the
     *         engine again only after it said something changed, and without a snapshot, which sorts
     *         every record (hundreds of members looked at every {@value ClusterWorker#POLL_MS} ms while
     *         they converge made that sort most of the JVM's work)
     */
    Map<String, Long> versions() {
        if (dirty) {
            dirty = false;
            versions = engine.versions();
        }
        return versions;
    }

    /**
     * In process only: from now on this member neither sends nor receives (a stopped process), or also
     * closes its connections and leaves without a word (a killed one).
     *
     * @param kill whether the member is killed rather than stopped
     * @throws IllegalStateException over TCP, where the benchmark signals a worker JVM instead
     */
    void halt(boolean kill) {
        InProcessStack stack = inProcess.orElseThrow(() -> new IllegalStateException("only members in one JVM are halted in it"));
        if (kill) {
            stack.kill();
            new Thread(cluster::close, "close killed member").start();
        } else {
            stack.freeze();
        }
    }

    /** Leaves the cluster. */
    @Override
    public void close() {
        cluster.close();
    }
}
