package io.railmap.discovery.lldp;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.discovery.model.DiscoveryFuzzing;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.Fuzzing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes what railmapd reads from lldpd ({@link LldpNeighbours#parse}: the output of
 * {@code lldpcli -f json0 show neighbors details}): any text gives switch ports and notes, or an
 * {@link IllegalArgumentException}; its message and every note is one clean line
 * ({@link DiscoveryFuzzing}), and every switch port passed its own checks. Seeds: the real tables in
 * {@code fixtures/lldp} (lldpd 1.0.16 on a cable and a hub, SONiC leaves, an H3C switch and Linux
 * hosts), and the empty table lldpd prints with no neighbour.
 */
class LldpNeighboursFuzzTest {
    private static final String SOURCE = "lldpcli /run/lldpd.socket";

    static Stream<byte[]> seeds() {
        return Stream.concat(Fuzzing.files(Path.of("src/test/resources/fixtures/lldp")),
                Stream.of("{\"lldp\": [{}]}".getBytes(StandardCharsets.UTF_8)));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"lldp\"", "\"interface\"", "\"name\"", "\"via\"", "\"LLDP\"", "\"CDP\"", "\"chassis\"", "\"port\"",
        "\"id\"", "\"type\"", "\"value\"", "\"capability\"", "\"enabled\"", "\"Station\"", "\"Bridge\"", "true", "false", "null",
        "[{\"value\": \"\"}]", "\\u0000", "\\u001b"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void neighbours(byte[] input) {
        Map<String, byte[]> inputs = Map.of("lldpcli output", input);
        SwitchPorts read = DiscoveryFuzzing.parse(inputs, () -> LldpNeighbours.parse(SOURCE, new String(input, StandardCharsets.UTF_8)),
                IllegalArgumentException.class);
        if (read != null) {
            DiscoveryFuzzing.lines("a note", read.notes().stream(), inputs);
        }
    }
}
