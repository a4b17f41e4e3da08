package io.railmap.daemon.testing;

import io.railmap.daemon.cluster.ClusterConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Cluster ports for members in the test JVM: a port whose failure-detection port (+100) is free too. */
public final class FreePorts {
    private FreePorts() {
    }

    /**
     * @return a cluster port p on loopback such that p and p + 100 were both free a moment ago
     * @throws IllegalStateException when 50 tries find none
     */
    public static int clusterPort() {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, loopback)) {
                port = s.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException("cannot open a socket on loopback: " + e.getMessage(), e);
            }
            if (port > ClusterConfig.MAX_PORT) {
                continue;
            }
            try (ServerSocket fd = new ServerSocket(port + ClusterConfig.FAILURE_DETECTION_OFFSET, 1, loopback)) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free pair of ports p, p+100 on loopback after 50 tries");
    }
}
