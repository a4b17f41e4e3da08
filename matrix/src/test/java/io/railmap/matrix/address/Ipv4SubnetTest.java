package io.railmap.matrix.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv4SubnetTest {
    @Test
    void aSubnetHoldsTheAddressesOfItsPrefixAndNoOther() {
        Ipv4Subnet cable = Ipv4Subnet.of("169.254.1.6", 30);
        assertThat(cable).hasToString("169.254.1.4/30");
        assertThat(cable.contains("169.254.1.4")).isTrue();
        assertThat(cable.contains("169.254.1.7")).isTrue();
        assertThat(cable.contains("169.254.1.8")).isFalse();
        assertThat(cable.contains("169.254.1.3")).isFalse();
        assertThat(cable.netmask()).isEqualTo("255.255.255.252");
        assertThat(cable.size()).isEqualTo(4);
        assertThat(cable.address(1)).isEqualTo("169.254.1.5");
        assertThat(Ipv4Subnet.of("10.0.0.1", 0).contains("255.255.255.255")).isTrue();
        assertThat(Ipv4Subnet.of("10.0.0.1", 32)).hasToString("10.0.0.1/32");
        assertThat(Ipv4Subnet.of("10.0.0.1", 32).netmask()).isEqualTo("255.255.255.255");
    }

    @Test
    void subnetsOverlapWhenOneHoldsTheOther() {
        assertThat(Ipv4Subnet.LINK_LOCAL.overlaps(Ipv4Subnet.of("169.254.9.1", 30))).isTrue();
        assertThat(Ipv4Subnet.of("169.254.9.1", 30).overlaps(Ipv4Subnet.LINK_LOCAL)).isTrue();
        assertThat(Ipv4Subnet.of("169.254.9.1", 30).overlaps(Ipv4Subnet.of("169.254.9.5", 30))).isFalse();
        assertThat(Ipv4Subnet.of("192.168.0.1", 16).overlaps(Ipv4Subnet.LINK_LOCAL)).isFalse();
    }

    @Test
    void parsingNamesTheInputAndWhatIsWrong() {
        assertThat(Ipv4Subnet.parse("--pool", "10.99.0.0/16")).isEqualTo(new Ipv4Subnet(0x0a630000L, 16));
        assertThatThrownBy(() -> Ipv4Subnet.parse("--pool", "10.99.0.1/16"))
                .hasMessage("--pool \"10.99.0.1/16\" has host bits set: the subnet is 10.99.0.0/16");
        assertThatThrownBy(() -> Ipv4Subnet.parse("--pool", "10.99.0.0/33")).hasMessageContaining("0 to 32");
        assertThatThrownBy(() -> Ipv4Subnet.of("10.0.0.1", -1)).hasMessageContaining("0 to 32");
        assertThatThrownBy(() -> new Ipv4Subnet(0x0a000001L, 24)).hasMessageContaining("host bits");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0/8", "10.0.0.0", "10.0.0.0/", "010.0.0.0/8", "10.0.0.256/24", "fe80::/64", "10.0.0.0/8\n",
        "a.b.c.d/8", "10.0.0.0/+8"})
    void whatIsNoIpv4SubnetIsRefused(String text) {
        assertThatThrownBy(() -> Ipv4Subnet.parse("--pool", text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--pool");
    }

    @Test
    void onlyDottedQuadsAreIpv4() {
        assertThat(Ipv4Subnet.isIpv4("169.254.1.1")).isTrue();
        assertThat(Ipv4Subnet.isIpv4("169.254.01.1")).isFalse();
        assertThat(Ipv4Subnet.isIpv4("fe80::1")).isFalse();
        assertThat(Ipv4Subnet.isIpv4("")).isFalse();
        assertThatThrownBy(() -> Ipv4Subnet.of("fe80::1", 24)).hasMessageContaining("not an IPv4 address");
    }
}
