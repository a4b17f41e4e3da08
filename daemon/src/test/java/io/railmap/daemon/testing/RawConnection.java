package io.railmap.daemon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 connection driven byte by byte, as a careless or hostile client would: requests
 * with any method, half-sent headers, raw garbage. Over TCP or a Unix socket; every read is bounded
 * in time.
 */
public final class RawConnection implements AutoCloseable {
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)\\s*$");
    private final SocketChannel channel;
    private final Selector selector;
    private final StringBuilder pending = new StringBuilder();

    private RawConnection(SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /** @return a connection to {@code 127.0.0.1:port} */
    public static RawConnection tcp(int port) throws IOException {
        return open(SocketChannel.open(StandardProtocolFamily.INET), new InetSocketAddress("127.0.0.1", port));
    }

    /** @return a connection to a Unix socket */
    public static RawConnection unix(Path socket) throws IOException {
        return open(SocketChannel.open(StandardProtocolFamily.UNIX), UnixDomainSocketAddress.of(socket));
    }

    private static RawConnection open(SocketChannel channel, SocketAddress address) throws IOException {
        try {
            channel.connect(address);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return new RawConnection(channel);
    }

    /** Sends text as ISO-8859-1 bytes, all of it. */
    public RawConnection send(String text) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("could not send within 10 s");
                }
                Thread.onSpinWait();
            }
        }
        return this;
    }

    /**
     * Reads one whole response (headers and a body of its {@code content-length}).
     *
     * @return the response
     * @throws IOException when the connection ends first, or nothing complete arrives within the wait
     */
    public Response read(Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            int end = pending.indexOf("\r\n\r\n");
            if (end >= 0) {
                Matcher m = CONTENT_LENGTH.matcher(pending.substring(0, end));
                int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
                if (pending.length() >= end + 4 + length) {
                    String text = pending.substring(0, end + 4 + length);
                    pending.delete(0, end + 4 + length);
                    return new Response(text);
                }
            }
            int n = fill(deadline);
            if (n < 0) {
                throw new IOException("the connection ended before a whole response arrived; got: " + pending);
            }
            if (n == 0) {
                throw new IOException("no whole response within " + wait + "; got: " + pending);
            }
        }
    }

    /**
     * @return whether the peer closed (or reset) the connection within the wait; what it sent
     *         before is read and dropped
     */
    public boolean closedWithin(Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            int n;
            try {
                n = fill(deadline);
            } catch (IOException reset) {
                return true;
            }
            if (n < 0) {
                return true;
            }
            if (n == 0) {
                return false;
            }
            pending.setLength(0);
        }
    }

    /** @return bytes read into {@link #pending}, -1 at the end of the stream, 0 when the deadline passed */
    private int fill(long deadline) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
            int n = channel.read(buffer);
            if (n != 0) {
                if (n > 0) {
                    pending.append(new String(buffer.array(), 0, n, StandardCharsets.ISO_8859_1));
                }
                return n;
            }
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One response.
     *
     * @param text the status line, headers and body, one character per byte (ISO-8859-1)
     */
    public record Response(String text) {
        /** @return the status code */
        public int status() {
            return Integer.parseInt(text.substring(text.indexOf(' ') + 1, text.indexOf(' ') + 4));
        }

        /** @return the value of a header (case-insensitive name), or null */
        public String header(String name) {
            Matcher m = Pattern.compile("(?im)^" + Pattern.quote(name.toLowerCase(Locale.ROOT)) + ":\\s*(.*?)\\s*$")
                    .matcher(text.substring(0, text.indexOf("\r\n\r\n")));
            return m.find() ? m.group(1) : null;
        }

        /** @return the body, decoded as UTF-8 */
        public String body() {
            return new String(text.substring(text.indexOf("\r\n\r\n") + 4).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        }
    }
}
