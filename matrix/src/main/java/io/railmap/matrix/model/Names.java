package io.railmap.matrix.model;

/** Shared rules for the names railmap accepts (node names, netdev names, RDMA device names). */
public final class Names {
    private Names() {
    }

    /**
     * Checks a node name: not blank, no whitespace, no {@code ':'} (which separates node and port
     * in {@code node:port}) and no {@code ','} (which separates hosts in {@code --hosts a,b}).
     *
     * @param what what the name is, for the message (e.g. {@code "node"})
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when the name breaks a rule
     */
    public static String node(String what, String name) {
        plain(what, name);
        if (name.indexOf(':') >= 0 || name.indexOf(',') >= 0) {
            throw new IllegalArgumentException(what + " name \"" + name + "\" must not contain ':' or ','");
        }
        return name;
    }

    /**
     * Parses a comma-separated list of node names, such as the value of {@code --hosts a,b,c}.
     *
     * @param what  where the list came from, for the message (e.g. {@code "--hosts"})
     * @param value the list
     * @return the names in order, trimmed
     * @throws IllegalArgumentException when a name is empty or breaks the rules of {@link #node}
     */
    public static java.util.List<String> nodeList(String what, String value) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String name : value.split(",", -1)) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException(what + " \"" + value + "\" has an empty name: write node names separated by commas, e.g. a,b,c");
            }
            out.add(node(what, trimmed));
        }
        return out;
    }

    /**
     * Checks a port or device name: not blank and no whitespace.
     *
     * @param what what the name is, for the message (e.g. {@code "netdev"})
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when the name is null, blank or holds whitespace
     */
    public static String plain(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(what + " name is empty");
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isWhitespace(name.charAt(i)) || Character.isISOControl(name.charAt(i))) {
                throw new IllegalArgumentException(what + " name \"" + name + "\" contains whitespace");
            }
        }
        return name;
    }
}
