package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProbeConfigTest {
    private final ProbeConfig defaults = ProbeConfig.defaults("lab", "a", 17, "10.0.0.1:7246");

    @Test
    void theDefaultsAreGroupFf02RailPort7245AndDefaultTiming() {
        assertThat(defaults.group()).isEqualTo("ff02::7261:696c");
        assertThat(defaults.udpPort()).isEqualTo(7245);
        assertThat(defaults.timing()).isEqualTo(ProbeTiming.DEFAULTS);
    }

    @Test
    void aPortsHelloCarriesTheIdentityAndTheTtlOfTheTiming() {
        ProbeDatagram hello = defaults.withTiming(ProbeTiming.LAB).hello("en6", Optional.of("rdma_en6"), "02:00:00:00:00:01");
        assertThat(hello).isEqualTo(new ProbeDatagram("lab", "a", "en6", Optional.of("rdma_en6"), "02:00:00:00:00:01", 17, 1,
                "10.0.0.1:7246", 875));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff02::1", "FF02::7261:696C", "ff12::7261:696c"})
    void anyLinkLocalMulticastGroupIsAccepted(String group) {
        assertThat(defaults.withGroup(group, 7245).group()).isEqualTo(group);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ff05::7261:696c", "fe80::1", "::1", "239.1.2.3", "ff02::1%en6", "localhost", "ff02::1::2"})
    void otherGroupsAreRefused(String group) {
        assertThatThrownBy(() -> defaults.withGroup(group, 7245)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 65536, 4791})
    void roceV2sPortAndPortsOutOfRangeAreRefused(int port) {
        assertThatThrownBy(() -> defaults.withGroup(ProbeConfig.DEFAULT_GROUP, port))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void invalidIdentitiesAreRefused() {
        assertThatThrownBy(() -> ProbeConfig.defaults("lab", "a b", 1, "h:1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProbeConfig.defaults("lab", "a", -1, "h:1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProbeConfig.defaults("lab", "a", 1, "h")).isInstanceOf(IllegalArgumentException.class);
    }
}
