package io.railmap.daemon.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class DiscoveryTest {

    private static LocalPort port(String node, String netdev, String rdma) {
        return new LocalPort(new Port(node, netdev, Optional.ofNullable(rdma), 1, rdma == null ? PortKind.ETHERNET : PortKind.ROCE,
                Optional.empty(), PortState.ACTIVE, Optional.empty(), List.of()),
                Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), true, List.of());
    }

    @Test
    void theBuilderKeepsTheFirstClaimOfANetdevOrRdmaPortAndSkipsTheRest() {
        Discovery.Builder builder = Discovery.builder("n1");
        builder.add(port("n1", "en10", "mlx5_0"));
        builder.add(port("n1", "en10", "mlx5_1"));
        builder.add(port("n1", "en2", "mlx5_0"));
        builder.add(port("n1", "en3", null));

        Discovery found = builder.build();

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en3", "en10");
        assertThat(found.skipped()).containsExactly(
                new SkippedPort("mlx5_1/1", "netdev en10 already belongs to en10 (mlx5_0/1)"),
                new SkippedPort("mlx5_0/1", "RDMA port mlx5_0/1 already belongs to en10 (mlx5_0/1)"));
    }

    @Test
    void aPortOfAnotherNodeIsRejected() {
        assertThatThrownBy(() -> Discovery.builder("n1").add(port("n2", "en2", null)))
                .hasMessageContaining("n2:en2");
        assertThatThrownBy(() -> new Discovery("n1", List.of(port("n1", "en2", null), port("n1", "en2", null)), List.of()))
                .hasMessageContaining("netdev en2 already belongs to en2");
    }

    @Test
    void aLocalPortChecksItsFacts() {
        Port withNeighbour = port("n1", "en2", null).port().withNeighbours(List.of(PortRef.parse("n2:en3")));
        assertThatThrownBy(() -> new LocalPort(withNeighbour, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(),
                false, List.of())).hasMessageContaining("no neighbours yet");
        Port plain = port("n1", "en2", null).port();
        assertThatThrownBy(() -> new LocalPort(plain, Optional.of("36:79:2c"), OptionalInt.of(0), OptionalInt.empty(),
                false, List.of())).hasMessageContaining("MTU 0");
        assertThatThrownBy(() -> new LocalPort(plain, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), false,
                List.of(new Gid(0, "fe80:0000:0000:0000:0000:0000:0000:0001", Optional.empty()))))
                .hasMessageContaining("GIDs without an RDMA device");
        assertThat(new LocalPort(plain, Optional.of("36:79:2C:66:09:80"), OptionalInt.of(1500), OptionalInt.of(7), true,
                List.of()).mac()).contains("36:79:2c:66:09:80");
    }
}
