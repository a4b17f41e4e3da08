package io.railmap.daemon.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TopologyLogTest {
    /** Two nodes with the given crossed cables, each end hearing the other ({@code "en6-en7"}: a:en6 to b:en7). */
    private static Snapshot cables(String... pairs) {
        List<Port> a = new ArrayList<>();
        List<Port> b = new ArrayList<>();
        for (String pair : pairs) {
            String[] ends = pair.split("-");
            a.add(port("a", ends[0], "b:" + ends[1]));
            b.add(port("b", ends[1], "a:" + ends[0]));
        }
        return new Snapshot(List.of(new NodeRecord("a", 1, a), new NodeRecord("b", 1, b)));
    }

    private static Port port(String node, String netdev, String far) {
        return new Port(node, netdev, Optional.empty(), 1, PortKind.ETHERNET, Optional.empty(), PortState.ACTIVE,
                Optional.empty(), List.of(PortRef.parse(far)));
    }

    @Test
    void oneLinePerChangeOfTheCablesAndNoneOtherwise() {
        TopologyLog log = new TopologyLog();
        assertThat(log.observe(cables("en6-en7"))).isEqualTo("topology: +1 (a:en6\u2013b:en7), -0; 1 cable among 2 nodes; ring: false");
        assertThat(log.observe(cables("en6-en7"))).isNull();
        assertThat(log.observe(cables("en6-en7", "en7-en6")))
                .isEqualTo("topology: +1 (a:en7\u2013b:en6), -0; 2 cables among 2 nodes; ring: true");
        assertThat(log.observe(cables("en7-en6")))
                .isEqualTo("topology: +0, -1 (a:en6\u2013b:en7); 1 cable among 2 nodes; ring: false");
    }
}
