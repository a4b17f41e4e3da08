package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Seeded property tests of the codec. Each repetition derives its seed from a base seed (random per
 * run, or {@code -Dprobe.seed=N} to replay one) and runs {@value #CASES} cases; a failure names
 * the seed that reproduces it.
 */
class ProbeCodecPropertyTest {
    private static final int CASES = 200;
    private static final long BASE_SEED = Long.getLong("probe.seed", new Random().nextLong());
    private static final String NAME_CHARS = "abcdefgxyz0123456789-_.\"\\/éβ水😀";

    @RepeatedTest(10)
    void randomBytesAreDecodedOrRefusedWithAReasonNeverAnotherException(RepetitionInfo repetition) {
        forEachCase(repetition, random -> {
            byte[] bytes = new byte[random.nextInt(1100)];
            random.nextBytes(bytes);
            if (random.nextBoolean() && bytes.length >= ProbeCodec.HEADER_BYTES) {
                // A valid header, so that the body parser gets the random bytes.
                byte[] header = Hellos.raw(ProbeCodec.MAGIC, 1, 1, bytes.length - ProbeCodec.HEADER_BYTES, new byte[0]);
                System.arraycopy(header, 0, bytes, 0, ProbeCodec.HEADER_BYTES);
            }
            decodesOrRefuses(bytes);
        });
    }

    @RepeatedTest(10)
    void validHellosSurviveTheRoundTripWithinTheSizeLimit(RepetitionInfo repetition) {
        forEachCase(repetition, random -> {
            ProbeDatagram hello = randomHello(random);
            byte[] bytes = Hellos.encode(hello);
            assertThat(bytes.length).isLessThanOrEqualTo(ProbeCodec.MAX_DATAGRAM_BYTES);
            try {
                assertThat(Hellos.decode(bytes)).isEqualTo(hello);
            } catch (ProbeFormatException e) {
                fail("a valid hello was refused: " + e.getMessage() + "\n" + hello);
            }
        });
    }

    @RepeatedTest(10)
    void mutatedHellosAreDecodedToValidHellosOrRefused(RepetitionInfo repetition) {
        forEachCase(repetition, random -> {
            byte[] bytes = Hellos.encode(randomHello(random));
            switch (random.nextInt(4)) {
                case 0 -> bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
                case 2 -> bytes = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(20));
                default -> {
                    int at = ProbeCodec.HEADER_BYTES + random.nextInt(bytes.length - ProbeCodec.HEADER_BYTES);
                    bytes[at] = (byte) "{}[]\":,0-e\\ ".charAt(random.nextInt(12));
                }
            }
            ProbeDatagram decoded = decodesOrRefuses(bytes);
            if (decoded != null) {
                // Whatever got through is a valid hello that encodes and decodes to itself.
                try {
                    assertThat(Hellos.decode(Hellos.encode(decoded))).isEqualTo(decoded);
                } catch (ProbeFormatException e) {
                    fail("a decoded hello did not survive re-encoding: " + e.getMessage());
                }
            }
        });
    }

    @RepeatedTest(3)
    void foreignTrafficOnTheGroupIsRefusedAsForeign(RepetitionInfo repetition) {
        String[] foreign = {
            "M-SEARCH * HTTP/1.1\r\nHOST: [ff02::c]:1900\r\n\r\n",
            "{\"cluster\":\"lab\",\"node\":\"b\"}",
            "RMA",
            "LLDP",
        };
        forEachCase(repetition, random -> {
            byte[] bytes = foreign[random.nextInt(foreign.length)].getBytes(StandardCharsets.UTF_8);
            try {
                Hellos.decode(bytes);
                fail("foreign datagram decoded");
            } catch (ProbeFormatException e) {
                assertThat(e.reason()).isIn(DropReason.MAGIC, DropReason.TRUNCATED);
            }
        });
    }

    private static ProbeDatagram decodesOrRefuses(byte[] bytes) {
        try {
            return Hellos.decode(bytes);
        } catch (ProbeFormatException e) {
            assertThat(e.reason()).isNotNull();
            return null;
        } catch (RuntimeException e) {
            throw new AssertionError("decode threw " + e + " for " + Arrays.toString(bytes), e);
        }
    }

    static ProbeDatagram randomHello(Random random) {
        Optional<String> rdma = random.nextBoolean() ? Optional.of(name(random)) : Optional.empty();
        StringBuilder mac = new StringBuilder();
        int octets = random.nextBoolean() ? 6 : 1 + random.nextInt(ProbeDatagram.MAX_MAC_OCTETS);
        for (int i = 0; i < octets; i++) {
            mac.append(i == 0 ? "" : ":").append(String.format("%02x", random.nextInt(256)));
        }
        String host = random.nextBoolean() ? "10.0." + random.nextInt(256) + "." + random.nextInt(256) : "[fd00::" + random.nextInt(65536) + "]";
        return new ProbeDatagram(name(random), name(random), name(random), rdma,
                mac.toString(), random.nextLong() & Long.MAX_VALUE, 1, host + ":" + (1 + random.nextInt(65535)),
                random.nextInt((int) ProbeDatagram.MAX_TTL_MS + 1));
    }

    private static String name(Random random) {
        StringBuilder name = new StringBuilder();
        int length = 1 + random.nextInt(random.nextInt(10) == 0 ? 40 : 12);
        while (name.length() < length) {
            name.appendCodePoint(NAME_CHARS.codePointAt(NAME_CHARS.offsetByCodePoints(0, random.nextInt(NAME_CHARS.codePointCount(0, NAME_CHARS.length())))));
        }
        String s = name.toString();
        while (s.getBytes(StandardCharsets.UTF_8).length > ProbeDatagram.MAX_NAME_BYTES) {
            s = s.substring(0, s.offsetByCodePoints(s.length(), -1));
        }
        return s;
    }

    private static void forEachCase(RepetitionInfo repetition, Consumer<Random> property) {
        long seed = BASE_SEED + repetition.getCurrentRepetition();
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            try {
                property.accept(random);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("failed at case " + i + " of seed " + seed + " (replay: -Dprobe.seed="
                        + (seed - repetition.getCurrentRepetition()) + ")", e);
            }
        }
    }
}
