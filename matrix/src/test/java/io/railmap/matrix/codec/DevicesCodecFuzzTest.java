package io.railmap.matrix.codec;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the jaccl devices file reader: any bytes give cells or a {@link FormatException}, and
 * cells without an empty name are written and read back unchanged. Seeds: the shipped devices file
 * and the cell shapes jaccl reads (null, a name, an array of names).
 */
class DevicesCodecFuzzTest {

    static Stream<byte[]> seeds() {
        String written = DevicesCodec.write(List.of(
                List.of(List.of(), List.of("rdma_en3"), List.of("rdma_en5", "rdma_en6")),
                List.of(List.of("rdma_en2"), List.of(), List.of()),
                List.of(List.of("rdma_en4", "rdma_en7"), List.of(), List.of())));
        return Stream.concat(Fuzzing.files(Path.of("../examples/snapshots/two-macs-crossed-wrong-devices.json")),
                Stream.of(written.getBytes(StandardCharsets.UTF_8)));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"null", "[]", "\"rdma_en2\"", "\"\""})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void devices(byte[] input) {
        List<List<List<String>>> cells = Fuzzing.parse(input,
                () -> DevicesCodec.read("fuzz", new String(input, StandardCharsets.UTF_8)), FormatException.class);
        if (cells != null && cells.stream().flatMap(List::stream).flatMap(List::stream).noneMatch(String::isEmpty)) {
            List<List<List<String>>> again = Fuzzing.parse(input, () -> DevicesCodec.read("again", DevicesCodec.write(cells)));
            if (!cells.equals(again)) {
                throw Fuzzing.failure("cells that read back changed (" + again + ")", Map.of("input", input), null);
            }
        }
    }
}
