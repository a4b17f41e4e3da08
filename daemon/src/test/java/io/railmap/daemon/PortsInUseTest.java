package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link PortsInUse} names the port another program holds, from the failure of a real cluster
 * member started on loopback beside a real socket holding one of its ports.
 */
class PortsInUseTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static ClusterConfig member(int port) {
        return new ClusterConfig("ports-test", "a", LOOPBACK, port, List.of(), Optional.empty(), ClusterTiming.LAB);
    }

    /** @return why a member on this port could not start */
    private static RuntimeException startFailure(ClusterConfig config) {
        try (Cluster c = new Cluster(config, new Engine("a"), new SimpleMeterRegistry())) {
            c.start();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("the member started although a port was taken");
    }

    @Test
    void aTakenClusterPortIsNamed() throws Exception {
        int port = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(port, 1, LOOPBACK)) {
            assertThat(PortsInUse.cluster(member(port), startFailure(member(port)))).hasValue("cluster TCP 127.0.0.1:" + port + " is in use: "
                    + "another railmapd or another program listens there (ss -ltnp 'sport = :" + port + "' names it); stop it, or choose "
                    + "another --cluster-port for every daemon of the cluster");
        }
    }

    @Test
    void aTakenFailureDetectionPortIsNamed() throws Exception {
        int port = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(port + ClusterConfig.FAILURE_DETECTION_OFFSET, 1, LOOPBACK)) {
            assertThat(PortsInUse.cluster(member(port), startFailure(member(port)))).get().asString()
                    .startsWith("failure detection TCP 127.0.0.1:" + (port + 100) + " (--cluster-port + 100) is in use");
        }
    }

    @Test
    void aFailureThatNamesNoTakenPortNamesNothing() {
        int port = FreePorts.clusterPort();
        assertThat(PortsInUse.cluster(member(port), new IllegalStateException("cannot join", new IllegalStateException("no route to host"))))
                .isEmpty();
    }

    @Test
    void aProbeFailureIsNamedOnlyWhenItIsATakenPort() {
        assertThat(PortsInUse.probe(new IllegalStateException("cannot listen", new BindException("Address already in use")), 7245)).get()
                .asString().startsWith("probe UDP port 7245 is in use: another program holds it");
        assertThat(PortsInUse.probe(new IllegalStateException("the neighbour probe needs Vert.x's NIO transport"), 7245)).isEmpty();
    }
}
