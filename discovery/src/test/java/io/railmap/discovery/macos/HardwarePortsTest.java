package io.railmap.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.model.DiscoveryException;
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
                new HardwarePort("Thunderbolt 2", Optional.of("en6"), Optional.of("36:79:2c:66:09:84"), Optional.empty()));
        assertThat(ports.named("Thunderbolt Bridge")).extracting(HardwarePort::device).containsExactly(Optional.of("bridge0"));
        assertThat(ports.named("Thunderbolt 0")).isEmpty();
        assertThat(ports.named("Thunderbolt Ethernet Slot 1, Port 1")).hasSize(1);
    }

    @Test
    void trimmedBlocksWithoutAddressAndTheVlanSectionAreRead() throws Exception {
        HardwarePorts ports = parse(Fixtures.networksetupM3Ultra());

        assertThat(ports.ports()).hasSize(14);
        assertThat(ports.named("Thunderbolt 6")).containsExactly(
                new HardwarePort("Thunderbolt 6", Optional.of("en7"), Optional.empty(), Optional.empty()));
    }

    @Test
    void aBlockWithoutDeviceAndNotAvailableAddressesAreEmpty() throws Exception {
        HardwarePorts ports = parse("Hardware Port: Thunderbolt 4\nEthernet Address: N/A\n\nHardware Port: Wi-Fi\nDevice: en0\n");

        assertThat(ports.named("Thunderbolt 4")).containsExactly(
                new HardwarePort("Thunderbolt 4", Optional.empty(), Optional.empty(), Optional.empty()));
    }

    @Test
    void outputWithoutAnyHardwarePortFails() {
        assertThatThrownBy(() -> parse("")).hasMessage("networksetup.txt: no \"Hardware Port:\" line");
        assertThatThrownBy(() -> parse("** Error: unknown option\n")).hasMessage("networksetup.txt: no \"Hardware Port:\" line");
    }

    /** An odd line costs its own block only; before the first block it costs nothing and is noted once. */
    @Test
    void anOddLineMarksOnlyItsBlockAndStrayLinesAreNotedOnce() throws Exception {
        HardwarePorts ports = parse("Device: en0\n\u001b[31mwarning\n\nHardware Port: Thunderbolt 1\nDevice: en1\n"
                + "-bash: networksetup: command not found\n\nHardware Port: Thunderbolt 2\nDevice: en\u0000\n\n"
                + "Hardware Port: Thunderbolt 3\nDevice: en2\nDevice: en3\n\nHardware Port: Thunderbolt 4\nDevice: en4\n");

        assertThat(ports.notes()).containsExactly("networksetup.txt: line 1 \"Device: en0\" comes before any \"Hardware Port:\""
                + " line; ignored (and 1 more such lines)");
        assertThat(ports.named("Thunderbolt 1").get(0).problem()).contains(
                "networksetup.txt: line 6 \"-bash: networksetup: command not found\" is not a \"Key: value\" line of"
                        + " networksetup -listallhardwareports");
        assertThat(ports.named("Thunderbolt 2").get(0).problem()).hasValueSatisfying(p -> assertThat(p)
                .contains("line 9 \"Device: en\\x00\"").contains("is not an interface name"));
        assertThat(ports.named("Thunderbolt 3").get(0).problem()).hasValueSatisfying(p -> assertThat(p)
                .contains("a second Device line"));
        assertThat(ports.named("Thunderbolt 4").get(0).problem()).isEmpty();
    }
}
