package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.daemon.cluster.ClusterConfig;
import io.railmap.daemon.cluster.ClusterTiming;
import io.railmap.daemon.testing.FreePorts;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link PortsInUse} names the port another program holds, with real sockets on loopback. */
class PortsInUseTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static ClusterConfig member(int port) {
        return new ClusterConfig("ports-test", "a", LOOPBACK, port, List.of(), Optional.empty(), ClusterTiming.LAB);
    }

    @Test
    void aTakenClusterPortIsNamed() throws Exception {
        int port = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(port, 1, LOOPBACK)) {
            assertThat(PortsInUse.cluster(member(port))).hasValue("cluster TCP 127.0.0.1:" + port + " is in use: another railmapd or another "
                    + "program listens there (ss -ltnp 'sport = :" + port + "' names it); stop it, or choose another --cluster-port for every "
                    + "daemon of the cluster");
        }
    }

    @Test
    void aTakenFailureDetectionPortIsNamed() throws Exception {
        int port = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(port + ClusterConfig.FAILURE_DETECTION_OFFSET, 1, LOOPBACK)) {
            assertThat(PortsInUse.cluster(member(port))).get().asString()
                    .startsWith("failure detection TCP 127.0.0.1:" + (port + 100) + " (--cluster-port + 100) is in use");
        }
    }

    @Test
    void freePortsNameNothing() {
        assertThat(PortsInUse.cluster(member(FreePorts.clusterPort()))).isEmpty();
    }

    @Test
    void aProbeFailureIsNamedOnlyWhenItIsATakenPort() {
        assertThat(PortsInUse.probe(new IllegalStateException("cannot listen", new BindException("Address already in use")), 7245)).get()
                .asString().startsWith("probe UDP port 7245 is in use: another program holds it");
        assertThat(PortsInUse.probe(new IllegalStateException("the neighbour probe needs Vert.x's NIO transport"), 7245)).isEmpty();
    }
}
