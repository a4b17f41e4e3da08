package io.railmap.daemon;

import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.probe.ProbeTiming;
import io.railmap.discovery.sources.Sources;
import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Everything one railmapd is told, validated.
 *
 * @param cluster       the cluster name; probes of other clusters are dropped. Default
 *                      {@value #DEFAULT_CLUSTER}; rules of {@link Names#node}
 * @param discovery     where this node's ports come from, as the discovery flags say, whole
 *                      ({@code DiscoveryOptions}): this node's name (default: the host name up to the
 *                      first dot; rules of {@link Names#node}), the interface selection, assumed RDMA
 *                      devices (labs and tests only), a sysfs root or macOS capture (tests), lldpd's
 *                      control socket
 * @param apiHost       the HTTP API's address. Default {@value #DEFAULT_API_HOST}: only this machine
 * @param apiPort       the HTTP API's TCP port; 0 picks a free one. Default {@value #DEFAULT_API_PORT}
 * @param apiSocket     also serve the API on this Unix domain socket (reachable from every network
 *                      namespace of the machine, which is how {@code railmap lab} talks to its daemons)
 * @param probe         probe timing: hello interval (default 1000 ms, at most
 *                      {@value #MAX_PROBE_INTERVAL_MS}), fast start, TTL (3.5 × interval)
 * @param linkPollMs    how often local discovery runs when link events cannot be read, in ms: carrier
 *                      loss is noticed within this time. Default 500 on Linux (a sysfs read), 3000 on
 *                      macOS (system_profiler); {@value #MIN_LINK_POLL_MS} to {@value #MAX_LINK_POLL_MS}
 * @param linkRecheckMs how often local discovery runs while link events are read (Linux, live
 *                      discovery: {@code ip monitor}), in ms: a safety net for changes the kernel does
 *                      not announce. Default {@value #DEFAULT_LINK_RECHECK_MS},
 *                      {@value #MIN_LINK_RECHECK_MS} to {@value #MAX_LINK_RECHECK_MS}
 * @param switchPollMs  how often lldpd and infiniband-diags are asked for the switch port at each
 *                      port's far end, in ms; default {@value #DEFAULT_SWITCH_POLL_MS},
 *                      {@value #MIN_SWITCH_POLL_MS} to {@value #MAX_SWITCH_POLL_MS}
 * @param member        this daemon's cluster member: management address, cluster port, seeds, key,
 *                      timing; its cluster and node names are {@code cluster} and {@code node}
 * @param rankScanMs    how often this node's processes are read for the ranks of running jobs
 *                      (docs/jobs.md), in ms: default {@value #DEFAULT_RANK_SCAN_MS},
 *                      {@value #MIN_RANK_SCAN_MS} to {@value #MAX_RANK_SCAN_MS}; empty when the scan is off
 *                      (no process is read, the record holds no ranks)
 */
public record DaemonConfig(String cluster, Sources.Settings discovery, String apiHost, int apiPort, Optional<Path> apiSocket, ProbeTiming probe,
                           long linkPollMs, long linkRecheckMs, long switchPollMs, ClusterConfig member, OptionalLong rankScanMs) {
    /** Default cluster name. */
    public static final String DEFAULT_CLUSTER = "railmap";
    /** Default API address. */
    public static final String DEFAULT_API_HOST = "127.0.0.1";
    /** Default API port (the probe uses UDP 7245). */
    public static final int DEFAULT_API_PORT = 7246;
    /** The longest hello interval, in ms: a far end then outlives its last hello by 210 s at most. */
    public static final long MAX_PROBE_INTERVAL_MS = 60_000;
    /** The shortest discovery interval, in ms. */
    public static final long MIN_LINK_POLL_MS = 50;
    /** The longest discovery interval, in ms: a pulled cable is noticed within a minute at worst. */
    public static final long MAX_LINK_POLL_MS = 60_000;
    /** Default discovery interval while link events are read, in ms. */
    public static final long DEFAULT_LINK_RECHECK_MS = 10_000;
    /** The shortest discovery interval while link events are read, in ms. */
    public static final long MIN_LINK_RECHECK_MS = 1_000;
    /** The longest discovery interval while link events are read, in ms. */
    public static final long MAX_LINK_RECHECK_MS = 600_000;
    /** Default interval of the switch-port poll, in ms: LLDP changes slowly (lldpd sends every 30 s). */
    public static final long DEFAULT_SWITCH_POLL_MS = 5_000;
    /** The shortest switch-port poll interval, in ms (labs). */
    public static final long MIN_SWITCH_POLL_MS = 100;
    /** The longest switch-port poll interval, in ms. */
    public static final long MAX_SWITCH_POLL_MS = 600_000;

    /** Default rank scan interval, in ms: a job that starts is in its node's record within about 2 s. */
    public static final long DEFAULT_RANK_SCAN_MS = 2_000;
    /**
     * The shortest rank scan interval, in ms: a scan reads up to 1024 processes (about 170 ms measured,
     * docs/jobs.md), so a shorter tick would keep a core busy for little gain.
     */
    public static final long MIN_RANK_SCAN_MS = 500;
    /** The longest rank scan interval, in ms: a job is seen within a minute at worst. */
    public static final long MAX_RANK_SCAN_MS = 60_000;

    /** @return this node's name ({@link Sources.Settings#node}) */
    public String node() {
        return discovery.node();
    }

    /**
     * @return whether discovery learns link changes from the kernel's events ({@link
     *         io.railmap.daemon.node.LinkEvents}): on Linux, reading the live system (no sysfs root,
     *         no macOS capture)
     */
    public boolean linkEvents() {
        return System.getProperty("os.name", "").startsWith("Linux") && !discovery.captured();
    }

    /**
     * @throws IllegalArgumentException naming the setting when a name is bad, the port is outside
     *                                  0–65535, a poll or scan interval is outside its range, the member's names differ from
     *                                  {@code node} and {@code cluster}, or the API port is the cluster
     *                                  port or the failure-detection port
     */
    public DaemonConfig {
        java.util.Objects.requireNonNull(discovery, "discovery");
        Names.node("node", discovery.node());
        Names.node("cluster", cluster);
        if (apiPort < 0 || apiPort > 65535) {
            throw new IllegalArgumentException("API port " + apiPort + " is outside 0-65535");
        }
        if (linkPollMs < MIN_LINK_POLL_MS || linkPollMs > MAX_LINK_POLL_MS) {
            throw new IllegalArgumentException("link poll interval " + linkPollMs + " ms is outside " + MIN_LINK_POLL_MS + "-"
                    + MAX_LINK_POLL_MS + " ms");
        }
        if (linkRecheckMs < MIN_LINK_RECHECK_MS || linkRecheckMs > MAX_LINK_RECHECK_MS) {
            throw new IllegalArgumentException("link recheck interval " + linkRecheckMs + " ms is outside " + MIN_LINK_RECHECK_MS + "-"
                    + MAX_LINK_RECHECK_MS + " ms");
        }
        if (switchPollMs < MIN_SWITCH_POLL_MS || switchPollMs > MAX_SWITCH_POLL_MS) {
            throw new IllegalArgumentException("switch poll interval " + switchPollMs + " ms is outside " + MIN_SWITCH_POLL_MS + "-"
                    + MAX_SWITCH_POLL_MS + " ms");
        }
        java.util.Objects.requireNonNull(rankScanMs, "rankScanMs");
        if (rankScanMs.isPresent() && (rankScanMs.getAsLong() < MIN_RANK_SCAN_MS || rankScanMs.getAsLong() > MAX_RANK_SCAN_MS)) {
            throw new IllegalArgumentException("rank scan interval " + rankScanMs.getAsLong() + " ms is outside " + MIN_RANK_SCAN_MS + "-"
                    + MAX_RANK_SCAN_MS + " ms");
        }
        if (!member.node().equals(discovery.node()) || !member.cluster().equals(cluster)) {
            throw new IllegalArgumentException("the cluster member is " + member.node() + " in " + member.cluster() + ", not " + discovery.node() + " in "
                    + cluster);
        }
        if (apiPort == member.port() || apiPort == member.failureDetectionPort()) {
            throw new IllegalArgumentException("API port " + apiPort + " is the cluster port " + member.port() + " or the failure-detection port "
                    + member.failureDetectionPort() + "; choose another --api or --cluster-port");
        }
    }
}
