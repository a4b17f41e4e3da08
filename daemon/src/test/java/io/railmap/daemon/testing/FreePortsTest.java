package io.railmap.daemon.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.daemon.cluster.config.ClusterConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void noPortIsHandedOutTwiceNorAsAnotherPortsFailureDetectionPort() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ports.add(FreePorts.clusterPort());
        }
        assertThat(ports).allMatch(p -> p >= FreePorts.FIRST && p <= FreePorts.LAST).doesNotHaveDuplicates();
        int offset = ClusterConfig.FAILURE_DETECTION_OFFSET;
        assertThat(ports).as("ports %d apart", offset).noneMatch(p -> ports.contains(p + offset));
    }
}
