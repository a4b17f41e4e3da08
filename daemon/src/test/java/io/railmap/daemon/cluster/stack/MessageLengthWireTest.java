package io.railmap.daemon.cluster.stack;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.Cluster;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.testing.FreePorts;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.jgroups.Version;
import org.jgroups.blocks.cs.Connection;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ClusterStack#MAX_MESSAGE_BYTES} over a real socket, as anyone who can reach the cluster port
 * can send it: JGroups 5.5's TCP_NIO2 first reads a connection's peer address (written by
 * {@code org.jgroups.blocks.cs.NioConnection.sendLocalAddress}: {@link Connection#cookie}, the version,
 * the address's length, the address), then length-prefixed messages; {@code
 * org.jgroups.nio.MessageReader.getLength} throws when a prefix is above {@code max_length}, before
 * anything of that length is allocated, and {@code NioConnection.read} logs that as a warning and
 * keeps the connection open. A prefix of exactly the bound is awaited (the control: the same
 * handshake, so a wrong handshake fails the control, not only the bound).
 */
class MessageLengthWireTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** A raw connection to the member's cluster port, past TCP_NIO2's handshake, that announces a message of {@code length} bytes. */
    private static Socket announce(int port, int length) throws Exception {
        Socket socket = new Socket(LOOPBACK, port);
        IpAddress peer = new IpAddress(LOOPBACK, FreePorts.clusterPort());
        ByteArrayDataOutputStream handshake = new ByteArrayDataOutputStream();
        handshake.write(Connection.cookie);
        handshake.writeShort(Version.version);
        handshake.writeShort(peer.serializedSize());
        peer.writeTo(handshake);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.write(handshake.buffer(), 0, handshake.position());
        out.writeInt(length);
        out.flush();
        socket.setSoTimeout(1_500);
        return socket;
    }

    /** @return whether the far end closed the connection within the socket's timeout (false: still open) */
    private static boolean closedByPeer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** JGroups' warnings about refused lengths, in the words of {@code MessageReader.getLength}. */
    private static List<String> refusals(List<LogRecord> records) {
        synchronized (records) {
            return records.stream().map(r -> new SimpleFormatter().formatMessage(r)).filter(m -> m.contains("bigger than the max accepted length"))
                    .toList();
        }
    }

    @Test
    void aConnectionAnnouncingMoreThanTheBoundIsRefusedAndTheMemberStays() throws Exception {
        Logger nio = Logger.getLogger("org.jgroups"); // TCP_NIO2's own logger logs for its connections
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                synchronized (records) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {
                // kept in memory
            }

            @Override
            public void close() {
                // kept in memory
            }
        };
        nio.addHandler(capture);
        int port = FreePorts.clusterPort();
        try (Cluster member = new Cluster(new ClusterConfig("length-test", "a", LOOPBACK, port, List.of(), Optional.empty(), ClusterTiming.LAB),
                new Engine("a"), new SimpleMeterRegistry())) {
            member.start();
            try (Socket atTheBound = announce(port, ClusterStack.MAX_MESSAGE_BYTES)) {
                assertThat(closedByPeer(atTheBound)).as("a message of exactly the bound is awaited").isFalse();
                assertThat(refusals(records)).isEmpty();
            }
            try (Socket above = announce(port, ClusterStack.MAX_MESSAGE_BYTES + 1); Socket huge = announce(port, Integer.MAX_VALUE)) {
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(refusals(records)).hasSize(2));
                assertThat(refusals(records)).anySatisfy(m -> assertThat(m).contains("(2.15GB)")).allSatisfy(m -> assertThat(m).endsWith(
                        "max accepted length (4.19MB): discarding the message"));
            assertThat(closedByPeer(above)).as("JGroups keeps the connection: each further message is refused alike").isFalse();
            }
            assertThat(member.connected()).isTrue();
            assertThat(member.membership().members()).hasSize(1);
        } finally {
            nio.removeHandler(capture);
        }
    }
}
