package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ApiSocket#claim} on real files and real Unix sockets: only a socket nobody answers on is removed. */
class ApiSocketTest {
    @TempDir
    Path dir;

    /** @return a socket file nobody listens on: bound, then closed (the JDK leaves the file) */
    private Path staleSocket(String name) throws Exception {
        Path path = dir.resolve(name);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(path));
        }
        assertThat(path).exists();
        return path;
    }

    @Test
    void nothingThereIsFine() {
        assertThat(ApiSocket.claim(dir.resolve("railmapd.sock"))).isFalse();
    }

    @Test
    void aStaleSocketIsRemoved() throws Exception {
        Path path = staleSocket("stale.sock");
        assertThat(ApiSocket.claim(path)).isTrue();
        assertThat(path).doesNotExist();
    }

    @Test
    void aSocketSomebodyAnswersOnIsRefusedAndKept() throws Exception {
        Path path = dir.resolve("live.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(path));
            assertThatThrownBy(() -> ApiSocket.claim(path)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--api-socket " + path + ": another daemon serves " + path + ": stop it first, or choose another path");
            try (SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
                assertThat(client.isConnected()).as("the live socket still takes connections").isTrue();
            }
        }
    }

    @Test
    void aRegularFileIsRefusedAndKept() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "keep me");
        assertThatThrownBy(() -> ApiSocket.claim(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--api-socket " + file + ": " + file + " is a regular file, not a socket; railmapd replaces only a stale socket "
                        + "of its own: choose another path");
        assertThat(Files.readString(file)).isEqualTo("keep me");
    }

    @Test
    void aDirectoryASymbolicLinkAndAFifoAreRefusedAndKept() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertThatThrownBy(() -> ApiSocket.claim(sub)).hasMessageContaining(" is a directory, not a socket")
                .hasMessageEndingWith("e.g. " + sub.resolve("railmapd.sock"));
        Path stale = staleSocket("target.sock");
        Path link = Files.createSymbolicLink(dir.resolve("link.sock"), stale);
        assertThatThrownBy(() -> ApiSocket.claim(link)).hasMessageContaining(" is a symbolic link, not a socket");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(stale).exists();
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> ApiSocket.claim(fifo)).hasMessageContaining(" is a FIFO, not a socket");
        assertThat(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS)).isTrue();
    }

    @Test
    void aMissingDirectoryIsRefused() {
        Path path = dir.resolve("no/such/railmapd.sock");
        assertThatThrownBy(() -> ApiSocket.claim(path))
                .hasMessage("--api-socket " + path + ": directory " + dir.resolve("no/such") + " does not exist: create it, or choose another path");
    }
}
