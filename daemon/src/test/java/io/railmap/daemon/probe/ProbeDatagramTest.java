package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.PortRef;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ProbeDatagramTest {

    @Test
    void theFarEndIsNodeAndPortAndTtlZeroIsAGoodbye() {
        ProbeDatagram hello = Hellos.hello("b", "en7");
        assertThat(hello.farEnd()).isEqualTo(new PortRef("b", "en7"));
        assertThat(hello.goodbye()).isFalse();
        assertThat(hello.withTtlMs(0).goodbye()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"02", "02:00:00:00:00:01", "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0a:0b:0c"})
    void macsOfOneToTwentyOctetsAreAccepted(String mac) {
        assertThat(withMac(mac).mac()).isEqualTo(mac);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2", "02:", "02:00:00:00:00:0G", "02:AA:00:00:00:01", "02-00-00-00-00-01",
        "00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00"})
    void otherMacsAreRefused(String mac) {
        assertThatThrownBy(() -> withMac(mac)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.2:7246", "node-b.example:1", "[fd00::2]:65535", "[fe80::1%en6]:7246"})
    void managementAddressesAreHostColonPort(String management) {
        assertThat(withManagement(management).management()).isEqualTo(management);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "10.0.0.2", ":7246", "10.0.0.2:", "10.0.0.2:0", "10.0.0.2:65536", "10.0.0.2:72a6",
        "fd00::2:7246", "[]:7246", "[fd00::2:7246", "a]:7246", "host name:7246", "hôte:7246"})
    void otherManagementAddressesAreRefused(String management) {
        assertThatThrownBy(() -> withManagement(management)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesLongerThan64BytesOfUtf8AreRefused() {
        String fits = "é".repeat(32);
        String over = "é".repeat(32) + "x";
        assertThat(new ProbeDatagram(fits, fits, fits, Optional.of(fits), "02", 0, 1, "h:1", 0).node()).isEqualTo(fits);
        assertThatThrownBy(() -> new ProbeDatagram(over, "b", "en7", Optional.empty(), "02", 0, 1, "h:1", 0))
                .hasMessageContaining("65 bytes");
        assertThatThrownBy(() -> new ProbeDatagram("lab", "b", "en7", Optional.of(over), "02", 0, 1, "h:1", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTtlAndIncarnationMustBeInRange() {
        assertThatThrownBy(() -> Hellos.hello("b", "en7", -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hellos.hello("b", "en7", 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hellos.hello("b", "en7", 0, ProbeDatagram.MAX_TTL_MS + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static ProbeDatagram withMac(String mac) {
        return new ProbeDatagram("lab", "b", "en7", Optional.empty(), mac, 0, 1, "h:1", 0);
    }

    private static ProbeDatagram withManagement(String management) {
        return new ProbeDatagram("lab", "b", "en7", Optional.empty(), "02", 0, 1, management, 0);
    }
}
