package io.railmap.daemon.testing;

import io.railmap.daemon.cluster.config.ClusterConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Cluster ports for members in the test JVM: a port whose failure-detection port (+100) is free too.
 *
 * <p>Ports are drawn from {@value #FIRST}–{@value #LAST}, below the kernel's ephemeral range (Linux
 * 32768–60999, macOS 49152–65535): a port handed out by {@code bind(0)} is one the kernel may give the
 * next outgoing connection of any process as its source port, so between this check and the member's
 * bind it could be taken (it was, on a machine with tens of thousands of connections open); a port
 * below that range is only ever taken by someone binding it on purpose.
 *
 * <p>A port handed out is never handed out again in this JVM, nor one 100 above or below it: a test
 * picks its members' ports before it starts them, so a free port drawn twice (or one member's port
 * drawn as another's failure-detection port) would be free at both checks and taken at the second
 * bind.
 */
public final class FreePorts {
    static final int FIRST = 20000;
    static final int LAST = 29899;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    /**
     * @return a cluster port p on loopback such that p and p + 100 were both free a moment ago, and
     *         neither was handed out before in this JVM
     * @throws IllegalStateException when 200 tries find none
     */
    public static synchronized int clusterPort() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(FIRST, LAST + 1);
            int offset = ClusterConfig.FAILURE_DETECTION_OFFSET;
            if (HANDED_OUT.contains(port) || HANDED_OUT.contains(port + offset) || HANDED_OUT.contains(port - offset)) {
                continue;
            }
            try (ServerSocket cluster = new ServerSocket(port, 1, loopback);
                 ServerSocket fd = new ServerSocket(port + offset, 1, loopback)) {
                HANDED_OUT.add(port);
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free pair of ports p, p+100 in " + FIRST + "-" + LAST + " on loopback after 200 tries");
    }
}
