package io.railmap.matrix.model;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the InfiniBand fabric tells about a port whose far end is another HCA (a back-to-back cable):
 * the GUID of this port's own HCA and the HCA port the cable enters at the far end. Every HCA has a
 * node GUID; the neighbour one hop out of a port answers NodeInfo with its node GUID and the port the
 * query entered by, so a cable is proven when each end names the other:
 * {@code A.peerNodeGuid == B.nodeGuid && A.peerPort == B.rdmaPort} and the same from B. (A far end
 * that is a switch is the port's {@link SwitchPort} instead.)
 *
 * @param nodeGuid     this port's HCA node GUID (Linux {@code /sys/class/infiniband/<hca>/node_guid}),
 *                     written {@code 0x} and 16 lower-case hex digits; empty when it could not be read
 * @param peerNodeGuid the node GUID of the HCA at the far end (smpquery NodeInfo {@code Guid}), same
 *                     form; empty when the far end is no HCA or is not known
 * @param peerPort     the port of that HCA the cable enters (NodeInfo {@code LocalPort}), 1 to 255;
 *                     present exactly when {@code peerNodeGuid} is
 */
public record Infiniband(Optional<String> nodeGuid, Optional<String> peerNodeGuid, Optional<Integer> peerPort) {
    private static final Pattern GUID = Pattern.compile("0x[0-9a-f]{16}");

    /**
     * Normalises GUIDs to lower case.
     *
     * @throws IllegalArgumentException when a GUID is not {@code 0x} and 16 hex digits, the peer port
     *                                  is not 1 to 255, or only one of peer GUID and peer port is given
     * @throws NullPointerException     when a component is null
     */
    public Infiniband {
        nodeGuid = nodeGuid.map(g -> guid("HCA node GUID", g));
        peerNodeGuid = peerNodeGuid.map(g -> guid("peer HCA node GUID", g));
        if (peerNodeGuid.isPresent() != peerPort.isPresent()) {
            throw new IllegalArgumentException("InfiniBand peer HCA: node GUID and port come together (got "
                    + (peerNodeGuid.isPresent() ? "a GUID without a port" : "a port without a GUID") + ")");
        }
        peerPort.ifPresent(p -> {
            if (p < 1 || p > 255) {
                throw new IllegalArgumentException("InfiniBand peer HCA port " + p + " is not 1 to 255");
            }
        });
    }

    /**
     * @param nodeGuid this port's HCA node GUID
     * @return an end whose far end is not known to be an HCA
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static Infiniband of(String nodeGuid) {
        return new Infiniband(Optional.of(nodeGuid), Optional.empty(), Optional.empty());
    }

    /**
     * @param guid a node GUID
     * @param port an HCA port number
     * @return the key naming that HCA port, {@code <guid>/<port>}, as {@link #peerKey} and {@link #keyOf} give it
     */
    public static String key(String guid, int port) {
        return guid + "/" + port;
    }

    /** @return the key of the far end's HCA port, when the far end is an HCA */
    public Optional<String> peerKey() {
        return peerNodeGuid.map(g -> key(g, peerPort.orElseThrow()));
    }

    /**
     * @param rdmaPort this port's RDMA port number
     * @return the key naming this end's HCA port, when its node GUID is known
     */
    public Optional<String> keyOf(int rdmaPort) {
        return nodeGuid.map(g -> key(g, rdmaPort));
    }

    private static String guid(String what, String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        if (!GUID.matcher(lower).matches()) {
            throw new IllegalArgumentException(what + " \"" + Names.escape(value, 40) + "\" is not 0x and 16 hex digits");
        }
        return lower;
    }
}
