package io.railmap.daemon.probe;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.matrix.Fuzzing;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes what anyone on a cable can send a daemon: a probe datagram. Any bytes give a hello or a
 * {@link ProbeFormatException} with a reason, with and without a key; a plain hello that decodes
 * encodes and decodes back unchanged (its sequence number aside, which a version-1 hello lacks); and
 * the whole receive path ({@link ProbeIntake#accept}) never throws. Seeds: hellos as daemons send
 * them, plain and authenticated, a goodbye and a version-1 hello.
 */
class ProbeDatagramFuzzTest {
    private static final ProbeKey KEY = ProbeKeys.of("fuzz");
    private static final ProbeIntake PLAIN = intake(Optional.empty());
    private static final ProbeIntake KEYED = intake(Optional.of(KEY));

    private static ProbeIntake intake(Optional<ProbeKey> key) {
        ProbeIntake intake = new ProbeIntake(ProbeConfig.defaults("lab", "a", 1, "10.0.0.1:7246").withKey(key),
                new ProbeMetrics(new SimpleMeterRegistry()));
        intake.portUp("en6", 3);
        return intake;
    }

    static Stream<byte[]> seeds() {
        ProbeDatagram hello = Hellos.hello("b", "en7");
        String v1 = Hellos.bodyWith("seq", null);
        return Stream.of(Hellos.encode(hello), Hellos.encode(hello.withTtlMs(0)), ProbeCodec.encode(hello, Optional.of(KEY)),
                Hellos.raw(ProbeCodec.MAGIC, 1, 1, v1.getBytes(StandardCharsets.UTF_8).length, v1));
    }

    @MethodSource("seeds")
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void datagram(byte[] input) {
        ProbeDatagram hello = Fuzzing.parse(input, () -> ProbeCodec.decode(input, Optional.empty()), ProbeFormatException.class);
        Fuzzing.parse(input, () -> ProbeCodec.decode(input, Optional.of(KEY)), ProbeFormatException.class);
        if (hello != null) {
            ProbeDatagram sent = hello.withSeq(Math.max(1, hello.seq()));
            byte[] again = Hellos.encode(sent);
            ProbeDatagram back = Fuzzing.parse(input, () -> Hellos.decode(again));
            if (!sent.equals(back)) {
                throw Fuzzing.failure("a hello that decodes back changed (" + back + ")", Map.of("datagram", input), null);
            }
        }
        Fuzzing.parse(input, () -> PLAIN.accept("fe80:0:0:0:a0c9:c7ff:fea6:e077%3", input, 0));
        Fuzzing.parse(input, () -> KEYED.accept("fe80:0:0:0:a0c9:c7ff:fea6:e077%3", input, 0));
    }
}
