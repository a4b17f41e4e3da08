package io.railmap.matrix.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpAddressesTest {
    private static final long BASE_SEED = 0x1b_5952L;
    private static final int RUNS = 2_000;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // RFC 5952 section 4: leading zeros dropped, lower case, the longest zero run as ::
        "2001:0db8:0000:0000:0000:0000:0002:0001, 2001:db8::2:1",
        "2001:DB8:0:0:0:0:2:1, 2001:db8::2:1",
        // section 4.2.2: one zero group is not shortened
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        // section 4.2.3: the longest run; of equal runs the first
        "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "0:0:0:0:0:0:0:1, ::1",
        "0:0:0:0:0:0:0:0, ::",
        "1:0:0:0:0:0:0:0, 1::",
        "fe80:0:0:0:1021:1bac:fe1:b5e3, fe80::1021:1bac:fe1:b5e3",
        "::ffff:0:a00:1, ::ffff:0:a00:1",
        "169.254.205.255, 169.254.205.255",
        "0.0.0.0, 0.0.0.0",
    })
    void addressesTakeTheirCanonicalForm(String text, String canonical) {
        assertThat(IpAddresses.canonical("address", text)).isEqualTo(canonical);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "studio-b|is not an IP address",
        "localhost|is not an IP address",
        "1.2.3|is not an IP address",
        "1.2.3.4.5|is not an IP address",
        "01.2.3.4|is not an IP address",
        "256.1.1.1|is not an IP address",
        "1234|is not an IP address",
        ".:1|is not an IP address",
        "fe80::1%en2|has a zone",
        "1:2:3:4:5:6:7:8:9|is not an IPv6 address",
        "12345::1|is not an IPv6 address",
        "::ffff:10.1.2.3|IPv4-mapped",
        "[::1]|is not an IP address",
    })
    void anythingElseIsRefusedWithoutALookUp(String text, String problem) {
        assertThatThrownBy(() -> IpAddresses.canonical("address", text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("address \"" + text + "\" ")
                .hasMessageContaining(problem);
    }

    @Test
    void aPortsAddressesAreDistinctIpv4FirstInNumericOrder() {
        assertThat(IpAddresses.forPort("a", List.of("fe80::2", "10.0.0.10", "2001:db8::1", "10.0.0.9", "FE80:0::2", "9.255.0.1")))
                .containsExactly("9.255.0.1", "10.0.0.9", "10.0.0.10", "2001:db8::1", "fe80::2");
    }

    /**
     * For seeded random 16-byte addresses, biased towards zero groups: the canonical text parses back
     * to the same bytes, is its own canonical form, is lower case, and its "::" stands for the first of
     * the longest runs of two or more zero groups (RFC 5952 section 4.2), or is absent when there is none.
     */
    @Test
    void canonicalIpv6TextFollowsRfc5952() throws Exception {
        for (int run = 0; run < RUNS; run++) {
            long seed = BASE_SEED + run;
            Random random = new Random(seed);
            byte[] bytes = new byte[16];
            for (int g = 0; g < 8; g++) {
                int value = random.nextInt(3) == 0 ? random.nextInt(0x10000) : random.nextInt(4) == 0 ? random.nextInt(16) : 0;
                bytes[2 * g] = (byte) (value >> 8);
                bytes[2 * g + 1] = (byte) value;
            }
            String canonical = IpAddresses.format(bytes);
            byte[] back = InetAddress.getByName(canonical).getAddress();
            if (back.length == 4) {
                continue; // ::ffff:a.b.c.d, which records refuse; the JDK hands it back as IPv4
            }
            assertThat(back).as("seed %d: %s", seed, canonical).isEqualTo(bytes);
            assertThat(IpAddresses.canonical("a", canonical)).as("seed %d", seed).isEqualTo(canonical);
            assertThat(collapsed(canonical)).as("seed %d: %s", seed, canonical).isEqualTo(firstLongestZeroRun(bytes));
            assertThat(canonical).as("seed %d", seed).isEqualTo(canonical.toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** @return {start, length} of the groups "::" stands for in a text, or {-1, 0} without "::" */
    private static List<Integer> collapsed(String text) {
        int at = text.indexOf("::");
        if (at < 0) {
            return List.of(-1, 0);
        }
        int left = at == 0 ? 0 : text.substring(0, at).split(":").length;
        int right = at + 2 == text.length() ? 0 : text.substring(at + 2).split(":").length;
        return List.of(left, 8 - left - right);
    }

    /** @return {start, length} of the first longest run of two or more zero groups, or {-1, 0} when there is none */
    private static List<Integer> firstLongestZeroRun(byte[] bytes) {
        int bestStart = -1;
        int bestLength = 0;
        for (int g = 0; g < 8; g++) {
            int length = 0;
            while (g + length < 8 && bytes[2 * (g + length)] == 0 && bytes[2 * (g + length) + 1] == 0) {
                length++;
            }
            if (length >= 2 && length > bestLength) {
                bestStart = g;
                bestLength = length;
            }
        }
        return List.of(bestStart, bestLength);
    }
}
