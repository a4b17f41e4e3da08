package io.railmap.daemon.probe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.function.LongSupplier;

/**
 * The sending half of one probed port: a Vert.x datagram socket whose outgoing multicast
 * interface is the port, and the timer that sends a hello on it, fast at first then steadily
 * ({@link ProbeTiming#delayAfterMs(int)}). Used only on the probe's event loop.
 */
final class PortSender {
    private static final Logger LOG = System.getLogger(PortSender.class.getName());

    private final Vertx vertx;
    private final ProbeConfig config;
    private final ProbeMetrics metrics;
    private final ProbeInterface local;
    private final LongSupplier nextSeq;
    private final ProbeDatagram hello;
    private DatagramSocket socket;
    private long timer = -1;
    private int sentInFastStart;
    private boolean closed;

    /**
     * @param nextSeq the daemon's datagram counter, shared by all its ports: each datagram sent takes
     *                the next number (replay protection, {@link ProbeDatagram#seq()})
     */
    PortSender(Vertx vertx, ProbeConfig config, ProbeMetrics metrics, ProbeInterface local, LongSupplier nextSeq) {
        this.vertx = vertx;
        this.config = config;
        this.metrics = metrics;
        this.local = local;
        this.nextSeq = nextSeq;
        this.hello = config.hello(local.netdev(), local.port().rdma(), local.mac());
    }

    ProbeInterface local() {
        return local;
    }

    /**
     * Opens the socket, sends the first hello at once and schedules the rest. Call on the event
     * loop.
     */
    void open() {
        // Vert.x applies the outgoing interface (IPV6_MULTICAST_IF) and the loopback flag only on
        // its NIO transport; ProbeService refuses to start on a native one. Netty's NIO config hands
        // loopbackModeDisabled straight to the JDK's IP_MULTICAST_LOOP, whose true means "loop
        // back", so false here is what keeps this node's own hellos from looping back to it.
        DatagramSocketOptions options = new DatagramSocketOptions()
                .setIpV6(true)
                .setMulticastNetworkInterface(local.netdev())
                .setLoopbackModeDisabled(false);
        socket = vertx.createDatagramSocket(options);
        socket.exceptionHandler(e -> LOG.log(Level.DEBUG, () -> "probe socket on " + local.netdev() + ": " + e));
        send(hello);
        sentInFastStart = 1;
        schedule();
    }

    /** Sends the next hellos at the fast-start pace again (a new far end appeared on this port). */
    void restartFastStart() {
        if (closed || socket == null) {
            return;
        }
        vertx.cancelTimer(timer);
        sentInFastStart = 0;
        schedule();
    }

    /**
     * Stops sending and closes the socket.
     *
     * @param sayGoodbye true to send a goodbye (TTL 0) first; a failed goodbye is only counted
     * @return completes (never fails) once the socket is closed
     */
    Future<Void> close(boolean sayGoodbye) {
        closed = true;
        vertx.cancelTimer(timer);
        if (socket == null) {
            return Future.succeededFuture();
        }
        Future<Void> last = sayGoodbye ? send(hello.withTtlMs(0)) : Future.succeededFuture();
        return last.eventually(() -> socket.close()).otherwiseEmpty();
    }

    private void schedule() {
        timer = vertx.setTimer(config.timing().delayAfterMs(sentInFastStart), id -> {
            if (closed) {
                return;
            }
            send(hello);
            if (sentInFastStart < config.timing().fastCount()) {
                sentInFastStart++;
            }
            schedule();
        });
    }

    private Future<Void> send(ProbeDatagram datagram) {
        Buffer bytes = Buffer.buffer(ProbeCodec.encode(datagram.withSeq(nextSeq.getAsLong()), config.key()));
        return socket.send(bytes, config.udpPort(), config.group())
                .onSuccess(v -> metrics.sent(local.netdev()))
                .onFailure(e -> {
                    metrics.sendFailed(local.netdev());
                    LOG.log(Level.DEBUG, () -> "probe datagram not sent on " + local.netdev() + ": " + e.getMessage());
                });
    }
}
