package io.railmap.lab;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.model.Names;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes what {@code railmap lab up --topology FILE} reads ({@link LabTopology#read}): any text gives
 * a topology or a {@link FormatException} of one line without a control character; a topology that
 * reads is written as the lab's {@code state.json} keeps it ({@link LabState#topologyTree}) and read
 * back unchanged. Nothing is made (no namespace, no process). Seeds: the shipped topologies
 * {@code examples/*.json} (rings, a doubled mesh, crossed cables, leaf switches).
 */
class LabTopologyFuzzTest {
    private static final String FILE = "topology.json";

    static Stream<byte[]> seeds() {
        return Stream.of("two-crossed", "six-ring", "four-ring-double", "three-mesh-doubled", "two-leaves", "two-leaves-swapped")
                .flatMap(name -> Fuzzing.files(Path.of("../examples/" + name + ".json")));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"description\"", "\"nodes\"", "\"switches\"", "\"cables\"", "[\"g1:eth2\", \"leaf0:p1\"]", "\"a:en6\"",
        "\"leaf0\"", ":p", "p4096", "p4097", "\"lo\"", "[]", "null"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void topology(byte[] input) {
        Map<String, byte[]> inputs = Map.of("topology file", input);
        LabTopology topology = Fuzzing.parse(inputs, () -> LabTopology.read(FILE, new String(input, StandardCharsets.UTF_8)),
                "one clean line", m -> !Names.hasHidden(m), FormatException.class);
        if (topology == null) {
            return;
        }
        String written = JsonText.pretty(LabState.topologyTree(topology));
        LabTopology again = Fuzzing.parse(inputs, () -> LabTopology.read("state.json topology", written));
        if (!topology.equals(again)) {
            throw Fuzzing.failure("a topology that changed when written and read back (" + Names.escape(written, 500) + ")", inputs, null);
        }
    }
}
