package io.railmap.discovery.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.LocalRank;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * macOS's {@code ps -axwwE -o pid=,ppid=,uid=,lstart=,command=} output, as the ps(1) manual of macOS
 * describes it (lines made here: no Mac runs these tests): only allow-listed words are kept, the
 * rest streamed past; then {@link MacRanks#ranks} makes ranks of them.
 */
class PsEnvironmentsTest {
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final String SECRET = "AKIA-planted-secret-77";
    @TempDir
    Path dir;

    private static List<PsEnvironments.Process> read(String output) throws IOException {
        return PsEnvironments.read(new ByteArrayInputStream(output.getBytes(StandardCharsets.UTF_8)), 1 << 20, UTC);
    }

    @Test
    void keepsTheAllowListedWordsOfEachLineWithItsPidParentUserAndStart() throws IOException {
        String output = "    1     0     0 Sat Nov 29 04:50:01 2026     /sbin/launchd\n"
                + "  812   400   501 Sat Nov  9 04:56:00 2026     python -m mlx.launch HOME=/Users/a AWS_SECRET_ACCESS_KEY=" + SECRET
                + " MLX_RANK=1 MLX_JACCL_COORDINATOR=10.0.0.1:5000 MLX_RANK=4 SLURM_JOB_ID=9\n"
                + "  813   812   501 Sat Nov  9 04:56:01 2026     python worker.py MLX_RANK=1 MLX_JACCL_COORDINATOR=10.0.0.1:5000\n"
                + "garbage line without fields MLX_RANK=3\n"
                + "  900     1   501 Sat Nov 29 04:56:00 2026     sleep 30 MLX_RANK=" + "7".repeat(5000) + " NCCL_IB_HCA=mlx5_0";

        List<PsEnvironments.Process> found = read(output);

        assertThat(found).extracting(PsEnvironments.Process::pid).containsExactly(812L, 813L, 900L);
        PsEnvironments.Process rank = found.get(0);
        assertThat(rank.parent()).isEqualTo(400);
        assertThat(rank.uid()).isEqualTo(501);
        assertThat(rank.startedMs()).isEqualTo(LocalDateTime.of(2026, 11, 9, 4, 56, 0).toInstant(ZoneOffset.UTC).toEpochMilli());
        assertThat(rank.settings()).containsExactly(Map.entry("MLX_JACCL_COORDINATOR", "10.0.0.1:5000"), Map.entry("MLX_RANK", "1"),
                Map.entry("SLURM_JOB_ID", "9"));
        assertThat(found.get(2).settings()).containsOnlyKeys("NCCL_IB_HCA");
        assertThat(found.get(2).dropped()).containsExactly("MLX_RANK: longer than 4096 bytes");
        assertThat(found.toString()).doesNotContain(SECRET).doesNotContain("AWS").doesNotContain("/Users/a");
    }

    @Test
    void ranksLeaveOutInheritingChildrenAndReadAbsoluteFilesOnly() throws IOException {
        Path devices = Files.writeString(dir.resolve("hosts.json"), "[[null, \"rdma_en3\"], [\"rdma_en3\", null]]");
        int uid = (Integer) Files.getAttribute(devices, "unix:uid");
        String output = "  812   400   " + uid + " Sat Nov 29 04:56:00 2026     python MLX_RANK=1 MLX_IBV_DEVICES=" + devices + "\n"
                + "  813   812   " + uid + " Sat Nov 29 04:56:00 2026     python MLX_RANK=1 MLX_IBV_DEVICES=" + devices + "\n"
                + "  900     1   " + uid + " Sat Nov 29 04:56:00 2026     python JACCL_RANK=0 JACCL_IBV_DEVICES=hosts.json\n"
                + "  901     1   " + uid + " Sat Nov 29 04:56:00 2026     bash SLURM_JOB_ID=4\n";
        Map<Long, String> told = new HashMap<>();

        JobScan scan = MacRanks.ranks(read(output), told, Path::of);

        assertThat(scan.ranks()).extracting(LocalRank::pid).containsExactly(812L, 900L);
        assertThat(scan.ranks().get(0).devices()).contains(List.of(List.of("rdma_en3"), List.of()));
        assertThat(scan.ranks().get(1).devices()).isEmpty();
        assertThat(scan.problems()).containsExactly("process 900: devices file not read: relative path hosts.json is not read on macOS"
                + " (no working directory of another process to read it in)");
        assertThat(MacRanks.ranks(read(output), told, Path::of).problems()).isEmpty();
    }
}
