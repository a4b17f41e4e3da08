package io.railmap.daemon;

import io.railmap.daemon.cluster.ClusterConfig;
import io.railmap.daemon.discovery.InterfaceSelection;
import io.railmap.daemon.probe.ProbeTiming;
import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Everything one railmapd is told, validated.
 *
 * @param node          this node's name (default: the host name up to the first dot)
 * @param cluster       the cluster name; probes of other clusters are dropped. Default {@value #DEFAULT_CLUSTER}
 * @param interfaces    which netdevs without RDMA are ports too (RDMA ports always are)
 * @param apiHost       the HTTP API's address. Default {@value #DEFAULT_API_HOST}: only this machine
 * @param apiPort       the HTTP API's TCP port; 0 picks a free one. Default {@value #DEFAULT_API_PORT}
 * @param apiSocket     also serve the API on this Unix domain socket (reachable from every network
 *                      namespace of the machine, which is how {@code railmap lab} talks to its daemons)
 * @param probe         probe timing: hello interval (default 1000 ms), fast start, TTL (3.5 × interval)
 * @param linkPollMs    how often local discovery runs, in ms: carrier loss is noticed within this
 *                      time. Default 500 on Linux (a sysfs read), 3000 on macOS (system_profiler)
 * @param sysfsRoot     read sysfs under this directory instead of {@code /} (tests)
 * @param macosCapture  read macOS command captures from this directory instead of running them (tests)
 * @param member        this daemon's cluster member: management address, cluster port, seeds, key,
 *                      timing; its cluster and node names are {@code cluster} and {@code node}
 */
public record DaemonConfig(String node, String cluster, InterfaceSelection interfaces, String apiHost, int apiPort,
                           Optional<Path> apiSocket, ProbeTiming probe, long linkPollMs, Optional<Path> sysfsRoot, Optional<Path> macosCapture,
                           ClusterConfig member) {
    /** Default cluster name. */
    public static final String DEFAULT_CLUSTER = "railmap";
    /** Default API address. */
    public static final String DEFAULT_API_HOST = "127.0.0.1";
    /** Default API port (the probe uses UDP 7245). */
    public static final int DEFAULT_API_PORT = 7246;

    /**
     * @throws IllegalArgumentException naming the setting when a name is bad, the port is outside
     *                                  0–65535, the poll interval is below 50 ms, both a sysfs root
     *                                  and a macOS capture are given, the member's names differ from
     *                                  {@code node} and {@code cluster}, or the API port is the cluster
     *                                  port or the failure-detection port
     */
    public DaemonConfig {
        Names.node("node", node);
        Names.plain("cluster", cluster);
        if (apiPort < 0 || apiPort > 65535) {
            throw new IllegalArgumentException("API port " + apiPort + " is outside 0-65535");
        }
        if (linkPollMs < 50) {
            throw new IllegalArgumentException("link poll interval " + linkPollMs + " ms is below 50 ms");
        }
        if (sysfsRoot.isPresent() && macosCapture.isPresent()) {
            throw new IllegalArgumentException("give a sysfs root or a macOS capture directory, not both");
        }
        if (!member.node().equals(node) || !member.cluster().equals(cluster)) {
            throw new IllegalArgumentException("the cluster member is " + member.node() + " in " + member.cluster() + ", not " + node + " in "
                    + cluster);
        }
        if (apiPort == member.port() || apiPort == member.failureDetectionPort()) {
            throw new IllegalArgumentException("API port " + apiPort + " is the cluster port " + member.port() + " or the failure-detection port "
                    + member.failureDetectionPort() + "; choose another --api or --cluster-port");
        }
    }
}
