package io.railmap.discovery.model;

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

    /** Neither of two ports claiming one netdev or one RDMA port is more likely right: both are skipped, naming the other. */
    @Test
    void portsClaimingOneNetdevOrRdmaPortAreAllSkippedEachNamingTheOthers() {
        Discovery.Builder builder = Discovery.builder("n1");
        builder.add(port("n1", "en10", "mlx5_0"), List.of());
        builder.add(port("n1", "en10", "mlx5_1"), List.of());
        builder.add(port("n1", "en2", "mlx5_0"), List.of());
        builder.add(port("n1", "en3", null), List.of("rate unknown: speed file"));

        Discovery found = builder.build();

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en3");
        assertThat(found.skipped()).containsExactly(
                new SkippedPort("mlx5_0/1", "netdev \"en10\" is also claimed by mlx5_1/1; RDMA port \"mlx5_0\"/1 is also"
                        + " claimed by mlx5_0/1: neither is reported"),
                new SkippedPort("mlx5_1/1", "netdev \"en10\" is also claimed by mlx5_0/1: neither is reported"),
                new SkippedPort("mlx5_0/1", "RDMA port \"mlx5_0\"/1 is also claimed by mlx5_0/1: neither is reported"));
        assertThat(found.notes()).containsExactly("port en3: rate unknown: speed file");
    }

    @Test
    void aPortOfAnotherNodeIsRejected() {
        assertThatThrownBy(() -> Discovery.builder("n1").add(port("n2", "en2", null), List.of()))
                .hasMessageContaining("n2:en2");
        assertThatThrownBy(() -> new Discovery("n1", List.of(port("n1", "en2", null), port("n1", "en2", null)), List.of(), List.of(), Optional.empty()))
                .hasMessageContaining("netdev \"en2\" belongs to both en2 and en2");
    }

    @Test
    void skippedPortNamesAreShownEscaped() {
        Discovery.Builder builder = Discovery.builder("n1");
        builder.skip("mlx5\u001b[2J/1", "odd");

        assertThat(builder.build().skipped()).containsExactly(new SkippedPort("mlx5\\x1b[2J/1", "odd"));
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
        String tooLong = "00" + ":00".repeat(32);
        assertThatThrownBy(() -> new LocalPort(plain, Optional.of(tooLong), OptionalInt.empty(), OptionalInt.empty(), false,
                List.of())).hasMessageContaining("is not 2 to 32 hex bytes").hasMessageContaining("more)");
    }
}
