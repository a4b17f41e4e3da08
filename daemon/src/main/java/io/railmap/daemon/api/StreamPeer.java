package io.railmap.daemon.api;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.ConnectionBase;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is at the other end of a request, as the key that shares the event stream slots
 * ({@code events/StreamShares}): one key per local user or remote address, so that no one of them
 * can take every slot.
 * <ul>
 *   <li>Unix socket: {@code uid NAME}, the peer's user from the kernel ({@code SO_PEERCRED}, Linux
 *       and macOS; the JDK's {@link ExtendedSocketOptions#SO_PEERCRED}); {@code unix socket} where
 *       the kernel does not say;</li>
 *   <li>TCP from this host (a loopback address, or one of the host's own): {@code this host}, one
 *       key, since any local user may connect from any of them (all of 127.0.0.0/8);</li>
 *   <li>TCP from elsewhere: the IPv4 address, or the IPv6 address's /64 (one host may use every
 *       address of its /64: SLAAC privacy addresses, RFC 8981).</li>
 * </ul>
 * Threads: any; may look up the host's interfaces (a system call, no name resolution).
 */
final class StreamPeer {
    private static final Logger LOG = System.getLogger(StreamPeer.class.getName());
    /** Whether a failure to read a Unix socket peer's user was logged (once per process). */
    private static final AtomicBoolean SAID = new AtomicBoolean();

    private StreamPeer() {
    }

    /** @return the request's peer key, as the class says */
    static String of(HttpServerRequest request) {
        SocketAddress remote = request.remoteAddress();
        if (remote == null || remote.isDomainSocket()) {
            return unixPeer(request);
        }
        InetAddress address;
        try {
            // a literal address: no name is resolved
            address = InetAddress.getByName(remote.hostAddress());
        } catch (UnknownHostException e) {
            return remote.hostAddress();
        }
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || local(address)) {
            return "this host";
        }
        byte[] bytes = address.getAddress();
        if (bytes.length == 16) {
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < 8; i += 2) {
                prefix.append(Integer.toHexString((bytes[i] & 0xff) << 8 | bytes[i + 1] & 0xff)).append(':');
            }
            return prefix + ":/64";
        }
        return address.getHostAddress();
    }

    private static boolean local(InetAddress address) {
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** @return {@code uid NAME} from the kernel's credentials of the socket's peer, else {@code unix socket} */
    private static String unixPeer(HttpServerRequest request) {
        try {
            // Vert.x gives no public way to the socket; its connections are Netty channels (vertx-core 5.0 ConnectionBase)
            Channel channel = ((ConnectionBase) request.connection()).channel();
            UnixDomainPrincipal principal = channel.config().getOption(NioChannelOption.of(ExtendedSocketOptions.SO_PEERCRED));
            if (principal != null) {
                return "uid " + principal.user().getName();
            }
        } catch (RuntimeException | LinkageError e) {
            if (SAID.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "cannot read the user of a Unix socket peer (" + e + "): every client of the Unix socket shares one "
                        + "share of the event streams");
            }
        }
        return "unix socket";
    }
}
