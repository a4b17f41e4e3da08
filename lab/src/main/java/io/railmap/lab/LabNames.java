package io.railmap.lab;

import io.railmap.matrix.model.Names;

/**
 * The names a lab gives what it makes. Every namespace starts with the prefix (default
 * {@value #DEFAULT_PREFIX}): {@code <prefix>-n-<node>}, {@code <prefix>-s-<switch>} and
 * {@code <prefix>-mgmt}, so {@code lab down} removes exactly what a lab made, even after a crash.
 *
 * @param prefix the prefix of every namespace
 */
public record LabNames(String prefix) {
    /** The default prefix. */
    public static final String DEFAULT_PREFIX = "rmlab";
    /** The management interface inside each node namespace. */
    public static final String MGMT_IF = "mgmt0";
    /** The bridge inside the management namespace and inside each switch namespace. */
    public static final String BRIDGE = "br0";
    /** The management network: node i gets {@code 10.231.0.(i+1)/24}. */
    public static final String MGMT_NET = "10.231.0.";
    /**
     * The management namespace's own address on its bridge ({@code /24}), above every node's
     * ({@link #mgmtAddress} ends at .253): where the lab's ssh client reaches the nodes from.
     */
    public static final String MGMT_HOST_ADDRESS = MGMT_NET + "254";

    /** @throws IllegalArgumentException when the prefix is empty or holds anything but letters, digits and '-' */
    public LabNames {
        if (!prefix.matches("[A-Za-z0-9-]{1,20}")) {
            throw new IllegalArgumentException("lab prefix \"" + prefix + "\" must be 1-20 letters, digits or '-'");
        }
    }

    /**
     * Checks a lab node name: the rules of {@link Names#node}, and no {@code '/'}, since the name is
     * part of a namespace name and of the daemon's socket and log file names.
     *
     * @param what what the name is, for the message ({@code "--lab"})
     * @param node the name
     * @return the name
     * @throws IllegalArgumentException when the name breaks a rule; the message shows it escaped
     */
    public static String node(String what, String node) {
        Names.node(what, node);
        if (node.contains("/")) {
            throw new IllegalArgumentException(what + " name \"" + Names.escape(node) + "\" must not contain '/'");
        }
        return node;
    }

    /** @return the namespace of a node */
    public String nodeNamespace(String node) {
        return prefix + "-n-" + node;
    }

    /** @return the namespace of a switch (its bridge and its lldpd) */
    public String switchNamespace(String sw) {
        return prefix + "-s-" + sw;
    }

    /** @return the namespace holding the management bridge */
    public String mgmtNamespace() {
        return prefix + "-mgmt";
    }

    /** @return true when a namespace name is one this lab's prefix makes */
    public boolean owns(String namespace) {
        return namespace.startsWith(prefix + "-n-") || namespace.startsWith(prefix + "-s-") || namespace.equals(mgmtNamespace());
    }

    /** @return node i's management address (0-based i), without the prefix length */
    public static String mgmtAddress(int i) {
        if (i < 0 || i > 252) {
            throw new IllegalArgumentException("a lab holds at most 253 nodes");
        }
        return MGMT_NET + (i + 1);
    }

    /** @return the bridge-side end of node i's management link */
    public static String bridgePort(int i) {
        return "m" + i;
    }
}
