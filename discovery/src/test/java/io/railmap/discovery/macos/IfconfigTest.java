package io.railmap.discovery.macos;

import static io.railmap.discovery.macos.Fixtures.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.model.PortAddresses;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ifconfig -a} parsing on real captures ({@code fixtures/macos}, provenance in the README there). */
class IfconfigTest {
    private static final String INTEL_MAC = read("macos/ifconfig_a_intel_mac_thunderbolt_bridge0.txt");
    private static final String TN3205 = read("macos/ibv_devinfo_tn3205.txt");

    private static Ifconfig parse(String text) {
        return Ifconfig.parse(new CommandOutput("ifconfig -a", text));
    }

    /**
     * ifconfig_a_intel_mac_thunderbolt_bridge0.txt: four Thunderbolt ports (en1-en4) in bridge0, the
     * Thunderbolt Bridge, none with an address of its own; a VM's en10 in bridge100, which holds
     * 192.168.64.1; link-local IPv6 with their zones elsewhere.
     */
    @Test
    void anIntelMacsThunderboltPortsAreMembersOfBridge0() {
        Ifconfig ifconfig = parse(INTEL_MAC);

        for (String tb : List.of("en1", "en2", "en3", "en4")) {
            assertThat(ifconfig.bridge(tb)).as(tb).contains("bridge0");
            assertThat(ifconfig.addresses(tb)).as(tb).contains(List.of());
        }
        assertThat(ifconfig.bridge("en10")).contains("bridge100");
        assertThat(ifconfig.bridge("en0")).isEmpty();
        assertThat(ifconfig.bridge("bridge0")).isEmpty();
        assertThat(ifconfig.addresses("bridge100")).contains(List.of("192.168.64.1/24"));
        assertThat(ifconfig.addresses("lo0")).contains(List.of("127.0.0.1/8", "::1/128", "fe80::1%lo0/64"));
        assertThat(ifconfig.addresses("en8")).contains(List.of("fe80::1021:c9d1:2cf6:656d%en8/64"));
        assertThat(ifconfig.addresses("gif0")).contains(List.of());
        assertThat(ifconfig.addresses("en99")).isEmpty();
        assertThat(ifconfig.notes()).isEmpty();
    }

    /** A record's addresses from it: zones dropped, IPv4 first. */
    @Test
    void theAddressesOfABlockBecomeARecordsWithoutZones() {
        List<String> notes = new ArrayList<>();

        PortAddresses.Listed lo0 = PortAddresses.of("ifconfig -a", parse(INTEL_MAC).addresses("lo0").orElseThrow(), notes);

        assertThat(lo0.addresses()).containsExactly("127.0.0.1", "::1", "fe80::1");
        // inet 127.0.0.1 netmask 0xff000000, inet6 ::1 prefixlen 128, inet6 fe80::1%lo0 prefixlen 64
        assertThat(lo0.prefixLengths()).containsOnly(Map.entry("127.0.0.1", 8), Map.entry("::1", 128), Map.entry("fe80::1", 64));
        assertThat(notes).isEmpty();
    }

    /**
     * ibv_devinfo_tn3205.txt (Apple TN3205): {@code ifconfig en2} of an M4 Pro Mac mini with RDMA on,
     * whose link-local IPv4 and IPv6 addresses its GID table holds; Apple's page shows tabs as spaces.
     */
    @Test
    void appleTn3205sEn2HoldsTheAddressesOfItsGids() {
        Ifconfig ifconfig = parse(Fixtures.section(TN3205, "% ifconfig en2", "% "));

        List<String> notes = new ArrayList<>();
        PortAddresses.Listed en2 = PortAddresses.of("ifconfig en2", ifconfig.addresses("en2").orElseThrow(), notes);
        assertThat(en2.addresses()).containsExactly("169.254.205.255", "fe80::1021:1bac:fe1:b5e3");
        // inet 169.254.205.255 netmask 0xffff0000: the /16 macOS self-assigns every Thunderbolt port
        assertThat(en2.prefixLengths()).containsOnly(Map.entry("169.254.205.255", 16), Map.entry("fe80::1021:1bac:fe1:b5e3", 64));
        assertThat(notes).isEmpty();
        assertThat(ifconfig.bridge("en2")).isEmpty();
    }

    /** TN3205's default Thunderbolt Bridge: members en2-en4; Apple elides lines with "...", which are noted once. */
    @Test
    void appleTn3205sBridge0HoldsEveryThunderboltPort() {
        Ifconfig ifconfig = parse(Fixtures.section(TN3205, "% ifconfig bridge0", "## "));

        assertThat(List.of("en2", "en3", "en4")).allSatisfy(p -> assertThat(ifconfig.bridge(p)).contains("bridge0"));
        assertThat(ifconfig.notes()).containsExactly("ifconfig -a: line 2 \"...\" is neither an interface header nor an indented"
                + " line; ignored (and 1 more such lines)");
    }

    @Test
    void oddLinesCostOnlyWhatTheySay() {
        String text = String.join("\n",
                "en2: flags=8863<UP> mtu 1500",
                "\tinet 169.254.1.2 netmask 0xffff0000",
                "\tinet6",
                "en3: flags=8863<UP> mtu 1500",
                "\tinet6 fe80::1%en3 prefixlen 64",
                "en3: flags=8863<UP> mtu 1500",
                "\tinet 10.0.0.3 netmask 0xff000000",
                "bridge0: flags=8863<UP> mtu 1500",
                "\tmember: en2 flags=3<LEARNING,DISCOVER>",
                "\tmember: en4 flags=3<LEARNING,DISCOVER>",
                "\tmember: \u001b[2J flags=3",
                "bridge1: flags=8863<UP> mtu 1500",
                "\tmember: en4 flags=3<LEARNING,DISCOVER>",
                "-bash: garbage",
                "");

        Ifconfig ifconfig = parse(text);

        assertThat(ifconfig.addresses("en2")).contains(List.of("169.254.1.2/16"));
        assertThat(ifconfig.bridge("en2")).contains("bridge0");
        assertThat(ifconfig.addresses("en3")).as("listed twice").isEmpty();
        assertThat(ifconfig.bridge("en4")).as("claimed by two bridges").isEmpty();
        assertThat(ifconfig.notes()).containsExactly(
                "ifconfig -a: line 14 \"-bash: garbage\" is neither an interface header nor an indented line; ignored",
                "ifconfig -a: line 11 \"member: \\x1b[2J flags=3\" names a member that is no interface name; ignored",
                "ifconfig -a: line 6 \"en3: flags=8863<UP> mtu 1500\" lists an interface a second time; its addresses unknown",
                "ifconfig -a: line 13 \"member: en4 flags=3<LEARNING,DISCOVER>\" lists as a member an interface another bridge"
                        + " holds; its bridge unknown");
    }

    @Test
    void badAndTooManyAddressesAreLeftOutWithANoteNeverThePort() {
        List<String> listed = new ArrayList<>(List.of("169.254.1.2/30", "fe80::1%en2/64", "not-an-address", "10.0.0.1%en2", "10.0.0.2/33",
                "2001:db8::20/-1"));
        for (int i = 1; i <= 20; i++) {
            listed.add("2001:db8::" + Integer.toHexString(i));
        }
        List<String> notes = new ArrayList<>();

        PortAddresses.Listed kept = PortAddresses.of("ifconfig -a", listed, notes);

        assertThat(kept.addresses()).hasSize(16).startsWith("10.0.0.2", "169.254.1.2", "2001:db8::1").endsWith("2001:db8::e");
        assertThat(kept.prefixLengths()).containsOnly(Map.entry("169.254.1.2", 30));
        assertThat(notes).containsExactly(
                "address \"not-an-address\" left out: ifconfig -a: it is not an IP address",
                "address \"10.0.0.1%en2\" left out: ifconfig -a: it is not an IP address",
                "prefix length of address \"10.0.0.2/33\" left out: ifconfig -a: it is not 0 to 32",
                "prefix length of address \"2001:db8::20/-1\" left out: ifconfig -a: it is not 0 to 128",
                "addresses left out: ifconfig -a lists 24; a record carries 16, the first in order (IPv4 first, then by number),"
                        + " up to 2001:db8::e");
    }

    @Test
    void aNetmaskIsAPrefixLengthOnlyWhenItsOnesAreContiguous() {
        assertThat(Ifconfig.prefixLength("inet 169.254.1.1 netmask 0xfffffffc broadcast 169.254.1.3".split(" "))).isEqualTo("/30");
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1 netmask 0x0".split(" "))).isEqualTo("/0");
        // a point-to-point link: in_status prints the destination before the netmask
        assertThat(Ifconfig.prefixLength("inet 10.8.0.2 --> 10.8.0.1 netmask 0xffffff00".split(" "))).isEqualTo("/24");
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1 netmask 0xffffffff".split(" "))).isEqualTo("/32");
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1 netmask 0xff00ff00".split(" "))).isEmpty();
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1 netmask 255.255.0.0".split(" "))).isEmpty();
        assertThat(Ifconfig.prefixLength("inet6 fe80::1%en2 prefixlen 64 secured scopeid 0xb".split(" "))).isEqualTo("/64");
        // in6_status's prefix() prints 0 also for a mask that is not contiguous ones: no length
        assertThat(Ifconfig.prefixLength("inet6 fe80::1%en2 prefixlen 0".split(" "))).isEmpty();
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1 netmask 0x1ffffffff".split(" "))).isEmpty();
        assertThat(Ifconfig.prefixLength("inet 10.0.0.1".split(" "))).isEmpty();
    }
}
