package io.railmap.matrix.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RdmaLimitsTest {
    @Test
    void countsAreZeroToIntMaxAndAtLeastOneIsKnown() {
        assertThat(RdmaLimits.of(null, null, null, null)).isEmpty();
        assertThat(RdmaLimits.of(0, Integer.MAX_VALUE, null, null)).hasValueSatisfying(l -> {
            assertThat(l.maxQp()).contains(0);
            assertThat(l.maxMr()).isEmpty();
        });
        assertThatThrownBy(() -> RdmaLimits.of(-1, null, null, null)).hasMessageContaining("max_qp -1 is negative");
        assertThatThrownBy(() -> new RdmaLimits(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()))
                .hasMessageContaining("no value known");
    }

    @Test
    void onlyAPortWithAnRdmaDeviceHasLimits() {
        Port plain = new Port("a", "eth0", Optional.empty(), 1, PortKind.ETHERNET, Optional.empty(), PortState.ACTIVE,
                Optional.<Thunderbolt>empty(), List.of());
        assertThatThrownBy(() -> plain.withRdmaLimits(RdmaLimits.of(3, null, null, null)))
                .hasMessageContaining("a:eth0: RDMA device limits without an RDMA device");
        Port rdma = new Port("a", "en2", Optional.of("rdma_en2"), 1, PortKind.THUNDERBOLT, Optional.empty(), PortState.ACTIVE,
                Optional.<Thunderbolt>empty(), List.of());
        assertThat(rdma.withRdmaLimits(RdmaLimits.of(3, null, null, null)).withState(PortState.DOWN).rdmaLimits())
                .isEqualTo(RdmaLimits.of(3, null, null, null));
    }
}
