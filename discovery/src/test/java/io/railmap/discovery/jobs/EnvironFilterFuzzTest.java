package io.railmap.discovery.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.Names;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes {@link EnvironFilter} with any bytes as a process's environment: what it keeps is only
 * allow-listed names with printable values of at most the bound, each the value of the first entry
 * of that name, exactly as the entries split at NUL say; and the byte cap holds.
 */
class EnvironFilterFuzzTest {
    static Stream<byte[]> seeds() {
        return Stream.of("MLX_RANK=1\0AWS_SECRET_ACCESS_KEY=x\0NCCL_IB_HCA==mlx5_0\0", "MLX_RANK=1\0MLX_RANK=2\0", "=\0\0=MLX_RANK\0")
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"MLX_RANK=", "MLX_IBV_DEVICES=", "JACCL_RANK=", "NCCL_IB_HCA=", "SLURM_JOB_ID=", "UCX_NET_DEVICES=", "\\u0000", "="})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void environ(byte[] input) throws IOException {
        int cap = 1 + (input.length == 0 ? 0 : (input[0] & 0xff) * 4);
        EnvironFilter.Found found = EnvironFilter.read(new ByteArrayInputStream(input), cap);

        String seen = new String(input, 0, Math.min(cap, input.length), StandardCharsets.ISO_8859_1);
        int lastNul = seen.lastIndexOf('\0');
        String[] entries = lastNul < 0 ? new String[0] : seen.substring(0, lastNul).split("\0", -1);
        for (Map.Entry<String, String> e : found.settings().entrySet()) {
            assertThat(JobVariables.NAMES).contains(e.getKey());
            assertThat(e.getValue().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(JobVariables.MAX_VALUE_CHARS);
            assertThat(Names.hasHidden(e.getValue())).isFalse();
            String first = null;
            for (String entry : entries) {
                if (entry.startsWith(e.getKey() + "=")) {
                    first = entry.substring(e.getKey().length() + 1);
                    break;
                }
            }
            assertThat(first).as("the first entry of " + e.getKey()).isNotNull();
            assertThat(new String(first.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)).isEqualTo(e.getValue());
        }
        assertThat(found.cut()).isEqualTo(input.length > cap);
    }
}
