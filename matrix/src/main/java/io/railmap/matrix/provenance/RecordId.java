package io.railmap.matrix.provenance;

import io.railmap.matrix.model.Names;
import java.util.regex.Pattern;

/**
 * Which record of a node a result was computed from: {@code node@version.hash}, e.g.
 * {@code studio-a@12.1f2e3d4c}.
 *
 * @param node    the node
 * @param version the record's version
 * @param hash    the first 8 hex digits of the SHA-256 of the record's canonical JSON, so two records
 *                with one version but different contents (a daemon restarted) still differ
 */
public record RecordId(String node, long version, String hash) {
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{8}");

    /** @throws IllegalArgumentException when the node name is bad, the version negative or the hash not 8 hex digits */
    public RecordId {
        Names.node("node", node);
        if (version < 0) {
            throw new IllegalArgumentException("record id of " + node + ": version " + version + " is negative");
        }
        if (!HASH.matcher(hash).matches()) {
            throw new IllegalArgumentException("record id of " + node + ": \"" + Names.escape(hash) + "\" is not 8 hex digits");
        }
    }

    /**
     * @param what  what the value is, for the message
     * @param value {@code node@version.hash}
     * @return the id
     * @throws IllegalArgumentException naming {@code what} when the value is malformed
     */
    public static RecordId parse(String what, String value) {
        int at = value.lastIndexOf('@');
        int dot = value.lastIndexOf('.');
        if (at <= 0 || dot < at + 2 || !value.substring(at + 1, dot).matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not a record id NODE@VERSION.HASH");
        }
        try {
            return new RecordId(value.substring(0, at), Long.parseLong(value.substring(at + 1, dot)), value.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
    }

    /** @return {@code node@version.hash} */
    @Override
    public String toString() {
        return node + "@" + version + "." + hash;
    }
}
