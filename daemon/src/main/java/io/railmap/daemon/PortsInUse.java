package io.railmap.daemon;

import io.railmap.daemon.cluster.config.ClusterConfig;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;

/**
 * Says which port kept the daemon from starting, and what to do, instead of the bare "Address
 * already in use" every one of them gives: the probe's UDP port, the cluster TCP port and the
 * failure-detection TCP port (the API's listeners name themselves, see
 * {@link io.railmap.daemon.api.ApiVerticle#start}).
 */
final class PortsInUse {
    private PortsInUse() {
    }

    /**
     * @param failure why the probe could not start
     * @param udpPort the probe's UDP port
     * @return the sentence when the failure is a taken port
     */
    static Optional<String> probe(Throwable failure, int udpPort) {
        if (!(root(failure) instanceof BindException)) {
            return Optional.empty();
        }
        return Optional.of("probe UDP port " + udpPort + " is in use: another program holds it (ss -lunp 'sport = :" + udpPort
                + "' names it; another railmapd in this network namespace?); stop it: every daemon of a cluster probes on UDP " + udpPort);
    }

    /**
     * Run after the cluster member failed to start and was closed. A port is named when JGroups'
     * own message names it (it says which port it could not bind, in words of its own) and binding
     * it for a moment fails here too, so that another program holds it.
     *
     * @param member  the member that could not start
     * @param failure why
     * @return the sentence naming the cluster port or the failure-detection port when one is taken
     */
    static Optional<String> cluster(ClusterConfig member, Throwable failure) {
        String said = String.valueOf(root(failure).getMessage());
        String host = member.bind().getHostAddress();
        host = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        if (names(said, member.port()) && taken(new InetSocketAddress(member.bind(), member.port()))) {
            return Optional.of("cluster TCP " + host + ":" + member.port() + " is in use: another railmapd or another program listens there "
                    + "(ss -ltnp 'sport = :" + member.port() + "' names it); stop it, or choose another --cluster-port for every daemon "
                    + "of the cluster");
        }
        if (names(said, member.failureDetectionPort()) && taken(new InetSocketAddress(member.bind(), member.failureDetectionPort()))) {
            return Optional.of("failure detection TCP " + host + ":" + member.failureDetectionPort() + " (--cluster-port + "
                    + ClusterConfig.FAILURE_DETECTION_OFFSET + ") is in use: another program listens there (ss -ltnp 'sport = :"
                    + member.failureDetectionPort() + "' names it); stop it, or choose another --cluster-port for every daemon of the cluster");
        }
        return Optional.empty();
    }

    private static boolean names(String message, int port) {
        return java.util.regex.Pattern.compile("(?<![0-9])" + port + "(?![0-9])").matcher(message).find();
    }

    private static boolean taken(InetSocketAddress address) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(address);
            return false;
        } catch (BindException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Throwable root(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
