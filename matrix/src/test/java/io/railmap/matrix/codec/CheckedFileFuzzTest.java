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
 * Fuzzes what {@code railmap check} reads ({@link CheckedFile}: a devices file or an mlx.launch
 * hostfile): any bytes give a file or a {@link FormatException}; a hostfile's devices file, when
 * mlx.launch would take it, is N×N for its N hosts. Seeds: the hostfile MLX's
 * {@code mlx.distributed_config} wrote for four Mac Studios, the same as a bare array, and the
 * shipped devices file.
 */
class CheckedFileFuzzTest {

    static Stream<byte[]> seeds() {
        String bare = "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, [\"rdma_en2\", \"rdma_en3\"]]},"
                + " {\"ssh\": \"b\", \"rdma\": [[\"rdma_en4\", \"rdma_en5\"], null], \"x\": 1}]";
        return Stream.of(Fuzzing.files(Path.of("../examples/hostfiles/four-studios-ring.json")),
                Fuzzing.files(Path.of("../examples/snapshots/two-macs-crossed-wrong-devices.json")),
                Stream.of(bare.getBytes(StandardCharsets.UTF_8))).flatMap(s -> s);
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"backend\"", "\"jaccl-ring\"", "\"envs\"", "\"MLX_JACCL_RING=1\"", "\"hosts\"", "\"ssh\"", "\"ips\"", "\"rdma\"", "null", "[]"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void checkedFile(byte[] input) {
        CheckedFile file = Fuzzing.parse(input, () -> CheckedFile.read("fuzz", new String(input, StandardCharsets.UTF_8)), FormatException.class);
        if (file instanceof Hostfile hostfile) {
            List<List<List<String>>> cells = Fuzzing.parse(input, () -> hostfile.jacclDevices("fuzz"), FormatException.class);
            int n = hostfile.hosts().size();
            if (cells != null && (cells.size() != n || cells.stream().anyMatch(row -> row.size() != n))) {
                throw Fuzzing.failure("a devices file that is not " + n + "×" + n + " (" + cells + ")", Map.of("input", input), null);
            }
        }
    }
}
