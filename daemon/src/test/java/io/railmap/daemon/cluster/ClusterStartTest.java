package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Starting a member for real, alone on loopback. */
class ClusterStartTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static Cluster member(int port) {
        return new Cluster(new ClusterConfig("start-test", "a", LOOPBACK, port, List.of(), Optional.empty(), ClusterTiming.LAB),
                new Engine("a"), new SimpleMeterRegistry());
    }

    @Test
    void aLoneDaemonIsACoordinatorOfOne() {
        try (Cluster alone = member(FreePorts.clusterPort())) {
            alone.start();
            Membership m = alone.membership();
            assertThat(m.members()).hasSize(1);
            Member self = m.members().get(0);
            assertThat(self.self()).isTrue();
            assertThat(self.coordinator()).isTrue();
            assertThat(self.node()).contains("a");
            assertThat(self.recordVersion()).hasValue(0);
        }
    }

    @Test
    void aTakenClusterPortOrFailureDetectionPortStopsTheStartNamingTheAddress() throws Exception {
        int port = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(port, 1, LOOPBACK); Cluster member = member(port)) {
            assertThatThrownBy(member::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot join cluster start-test on 127.0.0.1:" + port + " (failure detection on port " + (port + 100) + "): ");
        }
        int other = FreePorts.clusterPort();
        try (ServerSocket taken = new ServerSocket(other + ClusterConfig.FAILURE_DETECTION_OFFSET, 1, LOOPBACK); Cluster member = member(other)) {
            assertThatThrownBy(member::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot join cluster start-test on 127.0.0.1:" + other);
        }
    }
}
