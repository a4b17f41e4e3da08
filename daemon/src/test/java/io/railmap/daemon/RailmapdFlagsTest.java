package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Real railmapd JVMs given bad cluster flags: one line naming the flag, exit code 1, nothing started. */
class RailmapdFlagsTest {
    private record Run(int exit, String stderr) {
    }

    private static Process start(String... flags) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1",
                "-cp", classPath, Railmapd.class.getName(), "--node", "t", "--api", "127.0.0.1:0"));
        command.addAll(List.of(flags));
        return new ProcessBuilder(command).start();
    }

    private static Run finish(Process p) throws Exception {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("railmapd did not stop within 30 s");
        }
        return new Run(p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void badClusterFlagsStopTheDaemonWithOneLineAndExitCodeOne() throws Exception {
        // started together: each is a JVM start
        Process bothKeys = start("--cluster-key", "abc", "--cluster-key-file", "/etc/railmap/cluster.key");
        Process seeds = start("--bind", "127.0.0.1", "--seeds", "10.0.0.1:x");
        Process port = start("--bind", "127.0.0.1", "--cluster-port", "65500");

        assertThat(finish(bothKeys)).isEqualTo(new Run(1, "railmapd: give --cluster-key or --cluster-key-file, not both\n"));
        assertThat(finish(seeds)).isEqualTo(new Run(1, "railmapd: --seeds entry \"10.0.0.1:x\" is not host[:port]: port \"x\" is not a number\n"));
        assertThat(finish(port)).isEqualTo(new Run(1,
                "railmapd: --cluster-port 65500 is outside 1-65435 (failure detection listens 100 above it)\n"));
    }
}
