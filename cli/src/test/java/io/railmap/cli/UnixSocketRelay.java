package io.railmap.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP port on this machine's loopback whose every connection is carried to a Unix socket: a
 * browser, which speaks TCP only, reaches a lab daemon, whose API listens on 127.0.0.1 inside its
 * namespace and on a Unix socket reachable from here. Bytes pass unchanged both ways; closing the
 * relay closes every connection it carries.
 */
final class UnixSocketRelay implements AutoCloseable {
    private final Path socket;
    private final ServerSocketChannel server;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();

    UnixSocketRelay(Path socket) throws IOException {
        this.socket = socket;
        this.server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "relay to " + socket.getFileName());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return {@code http://127.0.0.1:PORT/} */
    String url() throws IOException {
        return "http://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort() + "/";
    }

    private void accept() {
        while (server.isOpen()) {
            SocketChannel tcp;
            try {
                tcp = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            open.add(tcp);
            try {
                SocketChannel unix = SocketChannel.open(UnixDomainSocketAddress.of(socket));
                open.add(unix);
                pump(tcp, unix);
                pump(unix, tcp);
            } catch (IOException e) {
                quietly(tcp);
            }
        }
    }

    private void pump(SocketChannel from, SocketChannel to) {
        Thread t = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput();
            } catch (IOException e) {
                quietly(from);
                quietly(to);
            }
        }, "relay pump");
        t.setDaemon(true);
        t.start();
    }

    private void quietly(SocketChannel channel) {
        open.remove(channel);
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        open.forEach(this::quietly);
    }
}
