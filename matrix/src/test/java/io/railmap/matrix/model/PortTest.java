package io.railmap.matrix.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Port}'s prefix lengths: each rule of the compact constructor, the copies, and the look-up. */
class PortTest {
    private static final List<String> ADDRESSES = List.of("fe80::1", "169.254.1.1", "2001:db8::1");

    private static Port port(List<String> addresses, boolean known, Map<String, Integer> prefixLengths) {
        return new Port("a", "en6", Optional.of("rdma_en6"), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.empty(), addresses, prefixLengths, known, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), List.of());
    }

    @Test
    void prefixLengthsAreKeptByCanonicalAddressInTheOrderOfTheAddresses() {
        Map<String, Integer> given = new LinkedHashMap<>();
        given.put("FE80:0:0:0:0:0:0:1", 64);
        given.put("169.254.1.1", 30);

        Port port = port(ADDRESSES, true, given);

        assertThat(port.prefixLengths()).containsExactly(Map.entry("169.254.1.1", 30), Map.entry("fe80::1", 64));
        assertThat(port.prefixLength("169.254.1.1")).contains(30);
        assertThat(port.prefixLength("2001:db8::1")).as("an address whose length is not known").isEmpty();
        assertThat(port.prefixLength("10.0.0.1")).as("not an address of this port").isEmpty();
        assertThatThrownBy(() -> port.prefixLengths().put("2001:db8::1", 64)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theMapIsCopiedNotShared() {
        Map<String, Integer> given = new HashMap<>(Map.of("169.254.1.1", 30));
        Port port = port(ADDRESSES, true, given);

        given.put("169.254.1.1", 16);

        assertThat(port.prefixLength("169.254.1.1")).contains(30);
    }

    @Test
    void theBoundsOfEachFamilyAreLengths() {
        Port port = port(List.of("0.0.0.0", "10.0.0.1", "::", "::1"), true, Map.of("0.0.0.0", 0, "10.0.0.1", 32, "::", 0, "::1", 128));

        assertThat(port.prefixLengths()).containsExactly(Map.entry("0.0.0.0", 0), Map.entry("10.0.0.1", 32), Map.entry("::", 0),
                Map.entry("::1", 128));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "IPv4 over 32|169.254.1.1|33|port a:en6: prefix length 33 of 169.254.1.1 is not 0 to 32",
        "IPv4 negative|169.254.1.1|-1|port a:en6: prefix length -1 of 169.254.1.1 is not 0 to 32",
        "IPv6 over 128|fe80::1|129|port a:en6: prefix length 129 of fe80::1 is not 0 to 128",
        "not one of the addresses|10.0.0.1|24|port a:en6: a prefix length for 10.0.0.1, which is not an address of the port",
        "not an address|studio-b|24|port a:en6 prefix length's address \"studio-b\" is not an IP address",
        "with a zone|fe80::1%en6|64|port a:en6 prefix length's address \"fe80::1%en6\" has a zone",
    })
    void aBadPrefixLengthIsRefused(String what, String address, int length, String message) {
        assertThatThrownBy(() -> port(ADDRESSES, true, Map.of(address, length))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void oneAddressInTwoFormsHasOneLengthAndNullsAreRefused() {
        assertThatThrownBy(() -> port(ADDRESSES, true, Map.of("fe80::1", 64, "FE80::0:1", 64)))
                .hasMessage("port a:en6: two prefix lengths for fe80::1");
        Map<String, Integer> nullLength = new HashMap<>();
        nullLength.put("169.254.1.1", null);
        assertThatThrownBy(() -> port(ADDRESSES, true, nullLength)).hasMessage("port a:en6: prefix length null of 169.254.1.1 is not 0 to 32");
        assertThatThrownBy(() -> port(ADDRESSES, true, null)).isInstanceOf(NullPointerException.class).hasMessage("prefixLengths");
        assertThatThrownBy(() -> port(ADDRESSES, true, Map.of()).prefixLength(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aPortWhoseAddressesAreNotKnownHasNoPrefixLengths() {
        assertThatThrownBy(() -> port(List.of(), false, Map.of("169.254.1.1", 16)))
                .hasMessage("port a:en6: a prefix length for 169.254.1.1, which is not an address of the port");
        assertThat(port(List.of(), false, Map.of()).prefixLengths()).isEmpty();
    }

    @Test
    void theOlderConstructorsGiveNoneAndEveryCopyKeepsThem() {
        Port older = new Port("a", "en6", Optional.of("rdma_en6"), 1, PortKind.THUNDERBOLT, Optional.of(80.0), PortState.ACTIVE,
                Optional.empty(), ADDRESSES, true, Optional.empty(), List.of());
        assertThat(older.prefixLengths()).isEmpty();

        Port port = port(ADDRESSES, true, Map.of("169.254.1.1", 30));
        List<Port> copies = List.of(port.withNeighbours(List.of(new PortRef("b", "en7"))), port.withState(PortState.DOWN),
                port.withSwitchPort(Optional.of(new SwitchPort(FarEndSource.LLDP, "52:54:00:12:34:56", Optional.empty(), "p1"))),
                port.withGidIndex(Optional.of(3)), port.withInfiniband(Optional.of(Infiniband.of("0x0002c90300336fe0"))));

        assertThat(copies).allSatisfy(copy -> assertThat(copy.prefixLengths()).containsExactly(Map.entry("169.254.1.1", 30)));
    }
}
