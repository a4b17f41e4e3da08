package io.railmap.discovery.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.sources.ManagementAddress.Candidate;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManagementAddressTest {
    private static Candidate on(String netdev, String ip) throws Exception {
        return new Candidate(netdev, InetAddress.getByName(ip));
    }

    @Test
    void theDefaultRoutesInterfaceWinsThenTheOnlyAddressThenLoopback() throws Exception {
        List<Candidate> several = List.of(on("lo", "127.0.0.1"), on("eth0", "10.0.0.5"), on("ib0", "192.168.7.5"), on("en6", "169.254.3.1"));
        assertThat(ManagementAddress.choose(several, Optional.of("ib0")).address().getHostAddress()).isEqualTo("192.168.7.5");

        List<Candidate> one = List.of(on("lo", "127.0.0.1"), on("mgmt", "10.77.0.1"), on("en6", "169.254.3.1"));
        ManagementAddress.Choice only = ManagementAddress.choose(one, Optional.empty());
        assertThat(only.address().getHostAddress()).isEqualTo("10.77.0.1");
        assertThat(only.reason()).isEqualTo("the only address of this machine (on mgmt)");
        // a default route through an interface without an IPv4 address decides nothing
        assertThat(ManagementAddress.choose(one, Optional.of("wg0")).address().getHostAddress()).isEqualTo("10.77.0.1");

        ManagementAddress.Choice alone = ManagementAddress.choose(List.of(on("lo", "127.0.0.1"), on("en6", "169.254.3.1")), Optional.empty());
        assertThat(alone.address().isLoopbackAddress()).isTrue();
        assertThat(alone.reason()).contains("cluster of one");
    }

    @Test
    void aRecordCarriesTheBoundAddressButNeverLoopbackOrTheWildcard() throws Exception {
        assertThat(ManagementAddress.ofRecord(InetAddress.getByName("10.231.0.1"))).contains("10.231.0.1");
        assertThat(ManagementAddress.ofRecord(InetAddress.getByName("2001:db8:0:0:0:0:0:5"))).contains("2001:db8::5");
        assertThat(ManagementAddress.ofRecord(InetAddress.getByName("fe80::5%1"))).contains("fe80::5");
        assertThat(ManagementAddress.ofRecord(InetAddress.getLoopbackAddress())).isEmpty();
        assertThat(ManagementAddress.ofRecord(InetAddress.getByName("0.0.0.0"))).isEmpty();
    }

    @Test
    void severalAddressesAndNoDefaultRouteNeedBind() throws Exception {
        List<Candidate> several = List.of(on("eth0", "10.0.0.5"), on("ib0", "192.168.7.5"));
        assertThatThrownBy(() -> ManagementAddress.choose(several, Optional.empty())).hasMessage(
                "--bind is required: this machine has several addresses (10.0.0.5 on eth0, 192.168.7.5 on ib0) and none holds the "
                        + "default route; give the management address");
    }

    @Test
    void theDefaultRouteIsReadFromTheKernelsTable() {
        String table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                + "ib0\t0007A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
                + "eth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n";
        assertThat(ManagementAddress.defaultRouteNetdev(table)).contains("eth0");
        assertThat(ManagementAddress.defaultRouteNetdev(table.lines().limit(2).reduce("", (x, y) -> x + y + "\n"))).isEmpty();
    }

    @Test
    void bindTakesOnlyLiteralAddressesOfThisMachine() {
        assertThat(ManagementAddress.parseLocal("127.0.0.1").isLoopbackAddress()).isTrue();
        assertThatThrownBy(() -> ManagementAddress.parseLocal("192.0.2.77")).hasMessage("--bind 192.0.2.77 is not an address of this machine");
        assertThatThrownBy(() -> ManagementAddress.parseLocal("0.0.0.0")).hasMessageContaining("wildcard");
        assertThatThrownBy(() -> ManagementAddress.parseLocal("mgmt-host")).hasMessageContaining("is not an IP address");
        assertThatThrownBy(() -> ManagementAddress.parseLocal("300.1.1.1")).hasMessageContaining("is not an IP address");
    }
}
