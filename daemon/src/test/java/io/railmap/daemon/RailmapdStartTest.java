package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.daemon.testing.RailmapdJvm;
import io.railmap.daemon.testing.RailmapdJvm.Run;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real railmapd JVMs on loopback that cannot start: what they say and their exit code. Each fails
 * before it binds anything but the API (so no probe or cluster port of this machine is touched).
 */
class RailmapdStartTest {
    @TempDir
    Path dir;

    private static Run run(String... flags) throws Exception {
        List<String> all = new ArrayList<>(List.of("--node", "t", "--bind", "127.0.0.1"));
        all.addAll(List.of(flags));
        return RailmapdJvm.finish(RailmapdJvm.start(all), 60);
    }

    @Test
    void aTakenApiPortIsNamedWithExitTwo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Run r = run("--api", "127.0.0.1:" + port);
            assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
            assertThat(r.stderr()).contains("railmapd: cannot start: API TCP 127.0.0.1:" + port + " is in use (Address already in use): "
                    + "another railmapd or another program listens there; stop it, or choose another --api ADDR:PORT");
        }
    }

    @Test
    void anApiSocketPathThatIsARegularFileOrADirectoryIsRefusedWithExitOneAndKept() throws Exception {
        Path file = Files.writeString(dir.resolve("precious.txt"), "keep me");
        Run r = run("--api", "127.0.0.1:0", "--api-socket", file.toString());
        assertThat(r).isEqualTo(new Run(1, "railmapd: --api-socket " + file + ": " + file + " is a regular file, not a socket; railmapd replaces "
                + "only a stale socket of its own: choose another path\n"));
        assertThat(Files.readString(file)).isEqualTo("keep me");

        Run d = run("--api", "127.0.0.1:0", "--api-socket", dir.toString());
        assertThat(d.exit()).isEqualTo(1);
        assertThat(d.stderr()).startsWith("railmapd: --api-socket " + dir + ": " + dir + " is a directory, not a socket");
        assertThat(dir.resolve("precious.txt")).exists();
    }
}
