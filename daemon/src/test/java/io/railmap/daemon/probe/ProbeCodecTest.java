package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProbeCodecTest {

    @Test
    void aHelloSurvivesTheRoundTripWithAndWithoutRdma() throws Exception {
        ProbeDatagram withRdma = Hellos.hello("b", "en7");
        ProbeDatagram without = Hellos.hello("b", "en7", 42, 0);
        assertThat(Hellos.decode(Hellos.encode(withRdma))).isEqualTo(withRdma);
        assertThat(Hellos.decode(Hellos.encode(without))).isEqualTo(without);
    }

    @Test
    void theHeaderIsMagicVersionTypeAndBodyLength() {
        byte[] bytes = Hellos.encode(Hellos.hello("b", "en7"));
        assertThat(Arrays.copyOf(bytes, 4)).containsExactly('R', 'M', 'A', 'P');
        assertThat(bytes[4]).isEqualTo((byte) 2);
        assertThat(bytes[5]).isEqualTo((byte) 1);
        assertThat(((bytes[6] & 0xFF) << 8) | (bytes[7] & 0xFF)).isEqualTo(bytes.length - 8);
    }

    @Test
    void theBodyIsAJsonObjectWithTheDocumentedKeysAndNoRdmaKeyWhenThereIsNone() {
        String body = body(Hellos.encode(Hellos.hello("b", "en7", 42, 3500).withSeq(9)));
        assertThat(body).isEqualTo("{\"cluster\":\"lab\",\"node\":\"b\",\"port\":\"en7\",\"mac\":\"02:00:00:00:00:01\","
                + "\"incarnation\":42,\"seq\":9,\"management\":\"10.0.0.2:7246\",\"ttlMs\":3500}");
        assertThat(body(Hellos.encode(Hellos.hello("b", "en7")))).contains("\"rdma\":\"rdma_en7\"");
    }

    @Test
    void aTypicalHelloIsSmall() {
        ProbeDatagram typical = new ProbeDatagram("prod-cluster", "gpu-node-017", "enp1s0f1np1", Optional.of("mlx5_1"),
                "b8:ce:f6:01:02:03", 1_732_280_000_000L, 1, "10.1.2.17:7246", 3500);
        assertThat(Hellos.encode(typical)).hasSizeLessThan(256);
    }

    @Test
    void theLargestPossibleHelloFitsTheLimit() throws Exception {
        // JSON escapes '"' and '\' with a backslash: names made only of them double in size.
        String name = "\"\\".repeat(ProbeDatagram.MAX_NAME_BYTES / 2);
        String mac = String.join(":", java.util.Collections.nCopies(ProbeDatagram.MAX_MAC_OCTETS, "ff"));
        String management = "[" + "\"".repeat(ProbeDatagram.MAX_MANAGEMENT_CHARS - 8) + "]:65535";
        ProbeDatagram largest = new ProbeDatagram(name, name, name, Optional.of(name), mac, Long.MAX_VALUE, 1,
                management, ProbeDatagram.MAX_TTL_MS);
        byte[] bytes = Hellos.encode(largest);
        assertThat(bytes.length).isLessThanOrEqualTo(ProbeCodec.MAX_DATAGRAM_BYTES);
        assertThat(Hellos.decode(bytes)).isEqualTo(largest);
    }

    static Stream<Arguments> refused() {
        byte[] magic = ProbeCodec.MAGIC;
        String ok = Hellos.bodyWith("none", null);
        int okLength = ok.getBytes(StandardCharsets.UTF_8).length;
        return Stream.of(
                Arguments.of("over 1024 bytes", new byte[1025], DropReason.OVERSIZE),
                Arguments.of("empty", new byte[0], DropReason.TRUNCATED),
                Arguments.of("7 bytes", Arrays.copyOf(magic, 7), DropReason.TRUNCATED),
                Arguments.of("another magic", Hellos.raw(new byte[] {'R', 'M', 'A', 'Q'}, 1, 1, okLength, ok), DropReason.MAGIC),
                Arguments.of("plain JSON", ok.getBytes(StandardCharsets.UTF_8), DropReason.MAGIC),
                Arguments.of("version 0", Hellos.raw(magic, 0, 1, okLength, ok), DropReason.VERSION),
                Arguments.of("version 3", Hellos.raw(magic, 3, 1, okLength, ok), DropReason.VERSION),
                Arguments.of("version 255", Hellos.raw(magic, 255, 1, okLength, ok), DropReason.VERSION),
                Arguments.of("type 0 (reserved)", Hellos.raw(magic, 1, 0, okLength, ok), DropReason.TYPE),
                Arguments.of("type 2 in version 1 (defined since 2)", Hellos.raw(magic, 1, 2, okLength, ok), DropReason.TYPE),
                Arguments.of("type 3 (not yet defined)", Hellos.raw(magic, 2, 3, okLength, ok), DropReason.TYPE),
                Arguments.of("authenticated, but no key here", Hellos.raw(magic, 2, 2, okLength, ok), DropReason.NO_KEY),
                Arguments.of("version 2 without seq", Hellos.withBody(Hellos.bodyWith("seq", null)), DropReason.FIELD),
                Arguments.of("seq 0", Hellos.withBody(Hellos.bodyWith("seq", "0")), DropReason.FIELD),
                Arguments.of("negative seq", Hellos.withBody(Hellos.bodyWith("seq", "-3")), DropReason.FIELD),
                Arguments.of("seq in version 1", Hellos.raw(magic, 1, 1, okLength, ok), DropReason.FIELD),
                Arguments.of("body shorter than declared", Hellos.raw(magic, 1, 1, okLength + 1, ok), DropReason.TRUNCATED),
                Arguments.of("header only, body declared", Hellos.raw(magic, 1, 1, 5, ""), DropReason.TRUNCATED),
                Arguments.of("bytes after the body", Hellos.raw(magic, 1, 1, okLength - 1, ok), DropReason.LENGTH),
                Arguments.of("not UTF-8", Hellos.raw(magic, 1, 1, 4, new byte[] {'{', (byte) 0xC3, 0x28, '}'}), DropReason.BODY),
                Arguments.of("empty body", Hellos.withBody(""), DropReason.BODY),
                Arguments.of("an array", Hellos.withBody("[]"), DropReason.BODY),
                Arguments.of("null", Hellos.withBody("null"), DropReason.BODY),
                Arguments.of("unclosed object", Hellos.withBody("{\"cluster\":\"lab\""), DropReason.BODY),
                Arguments.of("two objects", Hellos.withBody(ok + ok), DropReason.BODY),
                Arguments.of("a repeated key", Hellos.withBody(ok.replace("{", "{\"node\":\"c\",")), DropReason.BODY),
                Arguments.of("missing cluster", Hellos.withBody(Hellos.bodyWith("cluster", null)), DropReason.FIELD),
                Arguments.of("missing ttlMs", Hellos.withBody(Hellos.bodyWith("ttlMs", null)), DropReason.FIELD),
                Arguments.of("unknown key", Hellos.withBody(ok.replace("{", "{\"extra\":1,")), DropReason.FIELD),
                Arguments.of("null rdma", Hellos.withBody(Hellos.bodyWith("rdma", "null")), DropReason.FIELD),
                Arguments.of("node a number", Hellos.withBody(Hellos.bodyWith("node", "5")), DropReason.FIELD),
                Arguments.of("incarnation a string", Hellos.withBody(Hellos.bodyWith("incarnation", "\"7\"")), DropReason.FIELD),
                Arguments.of("incarnation a fraction", Hellos.withBody(Hellos.bodyWith("incarnation", "7.5")), DropReason.FIELD),
                Arguments.of("incarnation 7.0", Hellos.withBody(Hellos.bodyWith("incarnation", "7.0")), DropReason.FIELD),
                Arguments.of("incarnation over 2^63", Hellos.withBody(Hellos.bodyWith("incarnation", "9223372036854775808")), DropReason.FIELD),
                Arguments.of("negative incarnation", Hellos.withBody(Hellos.bodyWith("incarnation", "-1")), DropReason.FIELD),
                Arguments.of("TTL over 10 minutes", Hellos.withBody(Hellos.bodyWith("ttlMs", "600001")), DropReason.FIELD),
                Arguments.of("upper-case MAC", Hellos.withBody(Hellos.bodyWith("mac", "\"02:AA:00:00:00:01\"")), DropReason.FIELD),
                Arguments.of("MAC with dashes", Hellos.withBody(Hellos.bodyWith("mac", "\"02-00-00-00-00-01\"")), DropReason.FIELD),
                Arguments.of("port with a space", Hellos.withBody(Hellos.bodyWith("port", "\"en 7\"")), DropReason.FIELD),
                Arguments.of("node with a colon", Hellos.withBody(Hellos.bodyWith("node", "\"b:1\"")), DropReason.FIELD),
                Arguments.of("empty cluster", Hellos.withBody(Hellos.bodyWith("cluster", "\"\"")), DropReason.FIELD),
                Arguments.of("management without port", Hellos.withBody(Hellos.bodyWith("management", "\"10.0.0.2\"")), DropReason.FIELD),
                Arguments.of("management port 0", Hellos.withBody(Hellos.bodyWith("management", "\"10.0.0.2:0\"")), DropReason.FIELD),
                Arguments.of("management IPv6 unbracketed", Hellos.withBody(Hellos.bodyWith("management", "\"fd00::1:7246\"")), DropReason.FIELD));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("refused")
    void refusesWithTheReasonOfTheFirstRuleBroken(String what, byte[] datagram, DropReason reason) {
        assertThatThrownBy(() -> Hellos.decode(datagram))
                .isInstanceOfSatisfying(ProbeFormatException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.getMessage()).startsWith(reason.tag() + ": ");
                    assertThat(e.getStackTrace()).isEmpty();
                });
    }

    @Test
    void acceptsAnIpv6ManagementAddressInBracketsAndUnicodeNames() throws Exception {
        ProbeDatagram hello = new ProbeDatagram("lab", "nœud-β", "en7", Optional.empty(), "02:00:00:00:00:01", 0, 1,
                "[fd00::5]:7246", 0);
        assertThat(Hellos.decode(Hellos.encode(hello))).isEqualTo(hello);
    }

    @Test
    void aVersionOneHelloIsStillReadWithoutASequenceNumber() throws Exception {
        String v1 = Hellos.bodyWith("seq", null);
        byte[] datagram = Hellos.raw(ProbeCodec.MAGIC, 1, 1, v1.getBytes(StandardCharsets.UTF_8).length, v1);
        ProbeDatagram hello = Hellos.decode(datagram);
        assertThat(hello.seq()).isZero();
        assertThat(hello.farEnd().toString()).isEqualTo("b:en7");
    }

    @Test
    void anAuthenticatedHelloCarriesATagThatOnlyTheSameKeyAccepts() throws Exception {
        Optional<ProbeKey> key = Optional.of(ProbeKeys.of("k1"));
        ProbeDatagram hello = Hellos.hello("b", "en7");
        byte[] bytes = ProbeCodec.encode(hello, key);

        assertThat(bytes[5]).isEqualTo((byte) ProbeCodec.TYPE_AUTHENTICATED_HELLO);
        assertThat(bytes.length).isEqualTo(Hellos.encode(hello).length + ProbeKey.TAG_BYTES);
        assertThat(ProbeCodec.decode(bytes, key)).isEqualTo(hello);
        assertThat(ProbeCodec.decode(bytes, Optional.of(ProbeKeys.of("k1")))).as("derived alike on every daemon").isEqualTo(hello);
        assertThatThrownBy(() -> ProbeCodec.decode(bytes, Optional.of(ProbeKeys.of("k2"))))
                .isInstanceOfSatisfying(ProbeFormatException.class, e -> assertThat(e.reason()).isEqualTo(DropReason.BAD_TAG));
        assertThatThrownBy(() -> ProbeCodec.decode(bytes, Optional.empty()))
                .isInstanceOfSatisfying(ProbeFormatException.class, e -> assertThat(e.reason()).isEqualTo(DropReason.NO_KEY));
        assertThatThrownBy(() -> ProbeCodec.decode(Hellos.encode(hello), key)).as("a plain hello to a daemon with a key")
                .isInstanceOfSatisfying(ProbeFormatException.class, e -> assertThat(e.reason()).isEqualTo(DropReason.UNAUTHENTICATED));
    }

    @Test
    void changingAnyByteOfAnAuthenticatedHelloBreaksItsTag() {
        Optional<ProbeKey> key = Optional.of(ProbeKeys.of("k1"));
        byte[] bytes = ProbeCodec.encode(Hellos.hello("b", "en7"), key);
        for (int i = ProbeCodec.HEADER_BYTES; i < bytes.length; i++) {
            byte[] changed = bytes.clone();
            changed[i] ^= 0x01;
            assertThatThrownBy(() -> ProbeCodec.decode(changed, key)).as("byte %d flipped", i)
                    .isInstanceOfSatisfying(ProbeFormatException.class, e -> assertThat(e.reason()).isEqualTo(DropReason.BAD_TAG));
        }
    }

    @Test
    void aTagCutShortIsTruncatedNotParsed() {
        Optional<ProbeKey> key = Optional.of(ProbeKeys.of("k1"));
        assertThatThrownBy(() -> ProbeCodec.decode(Hellos.raw(ProbeCodec.MAGIC, 2, 2, 5, "{}abc"), key))
                .isInstanceOfSatisfying(ProbeFormatException.class, e -> assertThat(e.reason()).isEqualTo(DropReason.TRUNCATED));
    }

    private static String body(byte[] datagram) {
        return new String(datagram, ProbeCodec.HEADER_BYTES, datagram.length - ProbeCodec.HEADER_BYTES,
                StandardCharsets.UTF_8);
    }
}
