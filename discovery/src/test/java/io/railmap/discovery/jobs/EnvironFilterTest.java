package io.railmap.discovery.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.JobVariables;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An environment's bytes as /proc/PID/environ gives them: only allow-listed variables come out, whatever the rest holds. */
class EnvironFilterTest {
    private static EnvironFilter.Found read(String environ, int max) throws IOException {
        return EnvironFilter.read(new ByteArrayInputStream(environ.getBytes(StandardCharsets.UTF_8)), max);
    }

    @Test
    void keepsOnlyAllowListedVariablesAndTheFirstOfTwo() throws IOException {
        EnvironFilter.Found found = read("HOME=/root\0AWS_SECRET_ACCESS_KEY=planted-secret\0MLX_RANK=1\0"
                + "MLX_RANK=7\0NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\0MLX_RANKX=2\0NOEQUALS\0=MLX_RANK\0MLX_IBV_DEVICES=/tmp/h.json\0", 1 << 16);

        assertThat(found.settings()).containsExactly(Map.entry("MLX_IBV_DEVICES", "/tmp/h.json"), Map.entry("MLX_RANK", "1"),
                Map.entry("NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1"));
        assertThat(found.dropped()).isEmpty();
        assertThat(found.cut()).isFalse();
        assertThat(found.toString()).doesNotContain("planted-secret").doesNotContain("AWS");
    }

    @Test
    void dropsAllowListedValuesThatAreTooLongNotUtf8OrNotPrintableNamingOnlyTheVariable() throws IOException {
        byte[] bytes = ("MLX_RANK=" + "9".repeat(JobVariables.MAX_VALUE_CHARS + 1) + "\0JACCL_RANK=\u0001\0UCX_NET_DEVICES=ok\0").getBytes(StandardCharsets.UTF_8);
        byte[] notUtf8 = {'N', 'C', 'C', 'L', '_', 'C', 'R', 'O', 'S', 'S', '_', 'N', 'I', 'C', '=', (byte) 0xff, 0};
        byte[] all = new byte[bytes.length + notUtf8.length];
        System.arraycopy(bytes, 0, all, 0, bytes.length);
        System.arraycopy(notUtf8, 0, all, bytes.length, notUtf8.length);

        EnvironFilter.Found found = EnvironFilter.read(new ByteArrayInputStream(all), 1 << 16);

        assertThat(found.settings()).containsExactly(Map.entry("UCX_NET_DEVICES", "ok"));
        assertThat(found.dropped()).containsExactly("MLX_RANK: longer than 4096 bytes", "JACCL_RANK: holds a control or invisible character",
                "NCCL_CROSS_NIC: not UTF-8");
    }

    @Test
    void readsAtMostTheCapAndDropsTheEntryItCuts() throws IOException {
        String environ = "MLX_RANK=1\0MLX_HOSTFILE=/tmp/hosts.json\0";
        EnvironFilter.Found found = read(environ, environ.indexOf("json"));

        assertThat(found.settings()).containsOnlyKeys("MLX_RANK");
        assertThat(found.cut()).isTrue();
        assertThat(read(environ, environ.length()).cut()).isFalse();
    }

    @Test
    void aHugeNameOrValueOfAnotherVariableIsStreamedPastNotKept() throws IOException {
        long[] served = {0};
        long size = 8L << 20;
        InputStream endless = new InputStream() { // "XXXX...=" then 8 MiB of value, then a kept variable
            private final byte[] tail = "\0JACCL_RANK=3\0".getBytes(StandardCharsets.US_ASCII);

            @Override
            public int read() {
                long at = served[0]++;
                if (at < size) {
                    return at == 100_000 ? '=' : 'X';
                }
                return at - size < tail.length ? tail[(int) (at - size)] : -1;
            }
        };

        EnvironFilter.Found found = EnvironFilter.read(endless, 16 << 20);

        assertThat(found.settings()).containsExactly(Map.entry("JACCL_RANK", "3"));
        assertThat(served[0]).isLessThanOrEqualTo(size + 20);
    }
}
