package io.railmap.daemon.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.daemon.discovery.DiscoveryException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HardwarePortsTest {

    private static HardwarePorts parse(String text) throws DiscoveryException {
        return HardwarePorts.parse(new CommandOutput("networksetup.txt", text));
    }

    @Test
    void m5MaxListsEveryBlockAndMatchesThunderboltNamesExactly() throws Exception {
        HardwarePorts ports = parse(Fixtures.read("macos/networksetup_m5max_macbookpro.txt"));

        assertThat(ports.ports()).hasSize(9);
        assertThat(ports.named("Thunderbolt 2")).containsExactly(
                new HardwarePort("Thunderbolt 2", Optional.of("en6"), Optional.of("36:79:2c:66:09:84")));
        assertThat(ports.named("Thunderbolt Bridge")).extracting(HardwarePort::device).containsExactly(Optional.of("bridge0"));
        assertThat(ports.named("Thunderbolt 0")).isEmpty();
        assertThat(ports.named("Thunderbolt Ethernet Slot 1, Port 1")).hasSize(1);
    }

    @Test
    void trimmedBlocksWithoutAddressAndTheVlanSectionAreRead() throws Exception {
        HardwarePorts ports = parse(Fixtures.networksetupM3Ultra());

        assertThat(ports.ports()).hasSize(14);
        assertThat(ports.named("Thunderbolt 6")).containsExactly(
                new HardwarePort("Thunderbolt 6", Optional.of("en7"), Optional.empty()));
    }

    @Test
    void aBlockWithoutDeviceAndNotAvailableAddressesAreEmpty() throws Exception {
        HardwarePorts ports = parse("Hardware Port: Thunderbolt 4\nEthernet Address: N/A\n\nHardware Port: Wi-Fi\nDevice: en0\n");

        assertThat(ports.named("Thunderbolt 4")).containsExactly(
                new HardwarePort("Thunderbolt 4", Optional.empty(), Optional.empty()));
    }

    @Test
    void outputWithoutHardwarePortsOrWithStrayLinesFails() {
        assertThatThrownBy(() -> parse("")).hasMessage("networksetup.txt: no \"Hardware Port:\" line");
        assertThatThrownBy(() -> parse("Device: en0\n")).hasMessageContaining("line 1").hasMessageContaining("before any");
        assertThatThrownBy(() -> parse("** Error: unknown option\n")).hasMessageContaining("line 1");
    }
}
