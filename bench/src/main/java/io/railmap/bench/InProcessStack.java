package io.railmap.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.Discovery;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.SHARED_LOOPBACK;
import org.jgroups.protocols.SHARED_LOOPBACK_PING;
import org.jgroups.protocols.TP;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;

/**
 * The daemon's JGroups stack for one of many members in one JVM ({@link ClusterBench}
 * {@code --in-process}): JGroups' SHARED_LOOPBACK in place of TCP_NIO2 (a message is handed to each
 * receiving member's transport in the same JVM, serialized, with no socket or connection) and
 * SHARED_LOOPBACK_PING in place of the discovery (every member registered under the cluster's name
 * answers at once). Every other protocol is the daemon's own, configured as in a daemon: encryption,
 * failure detection (FD_SOCK2 still opens its TCP connections, on the member's loopback address),
 * heartbeats, merges, retransmission, membership; FD_SOCK2 waits longer for an answer
 * ({@link #CONNECT_TIMEOUT_MS}). Above the transport sits a DISCARD that drops
 * nothing until {@link #freeze} tells it to drop everything in and out, which is how a stopped process
 * looks to the others; {@link #kill} also closes FD_SOCK2's connections, as the kernel does for a killed
 * process.
 */
final class InProcessStack implements UnaryOperator<List<Protocol>> {
    /**
     * How long FD_SOCK2 waits for the next member to answer its connection, in ms (JGroups' own 1 s
     * in a daemon). The answer comes from the neighbour's FD_SOCK2 server thread, which here shares 2
     * cores with every member's work: with 512 members it took up to about 1 s even while they joined
     * one by one, and every answer later than the timeout made a live member suspected, its
     * suspicion sent to every member (docs/benchmarks.md, "At scale"). A member killed here closes its server,
     * so a connection to it is refused at once whatever this is.
     */
    static final int CONNECT_TIMEOUT_MS = 10_000;

    private final DISCARD discard = new DISCARD();
    private FD_SOCK2 connectionWatch;

    @Override
    public List<Protocol> apply(List<Protocol> daemonStack) {
        List<Protocol> out = new ArrayList<>();
        for (Protocol p : daemonStack) {
            if (p instanceof TP tcp) {
                SHARED_LOOPBACK loopback = new OwnAddressLoopback();
                // FD_SOCK2 listens on the transport's port plus its offset, on the member's own address
                loopback.setBindAddress(tcp.getBindAddress());
                loopback.setBindPort(tcp.getBindPort());
                // the daemon's bundler, as configured (TCP_NIO2 never starts, so it was never given to it)
                loopback.setBundler(tcp.getBundler());
                loopback.getThreadPool().setMinThreads(0).setKeepAliveTime(tcp.getThreadPool().getKeepAliveTime());
                out.add(loopback);
                out.add(discard);
            } else if (p instanceof FD_SOCK2 fd) {
                connectionWatch = fd;
                fd.setValue("connect_timeout", CONNECT_TIMEOUT_MS);
                out.add(fd);
            } else if (p instanceof Discovery) {
                out.add(new SHARED_LOOPBACK_PING());
            } else {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * SHARED_LOOPBACK whose physical address is the member's bind address and port, as TCP_NIO2's
     * would be: SHARED_LOOPBACK gives every member 127.0.0.1:1, and FD_SOCK2 connects to a member at
     * its physical address plus the offset. The wire is SHARED_LOOPBACK's (same protocol id).
     */
    private static final class OwnAddressLoopback extends SHARED_LOOPBACK {
        OwnAddressLoopback() {
            setId(ClassConfigurator.getProtocolId(SHARED_LOOPBACK.class));
        }

        @Override
        public void init() throws Exception {
            super.init();
            physical_addr = new IpAddress(getBindAddress(), getBindPort());
        }
    }

    /** From now on, the member neither sends nor receives a message (its FD_SOCK2 connections stay open). */
    void freeze() {
        discard.discardAll(true);
    }

    /**
     * From now on, the member neither sends nor receives a message, and its FD_SOCK2 connections are
     * closed: its neighbour sees them close, as when a process is killed (SIGKILL). The member is to be
     * closed afterwards (its leave, dropped here, goes nowhere).
     */
    void kill() {
        freeze();
        if (connectionWatch != null) {
            connectionWatch.stop();
        }
    }
}
