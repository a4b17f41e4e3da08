package io.railmap.daemon.cluster.stack;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jgroups.Address;
import org.jgroups.stack.AddressGenerator;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.NameCache;
import org.jgroups.util.UUID;

/**
 * A member's JGroups address carries its node name, so every member knows which node each member of
 * a view is from the view alone (JGroups' logical names travel separately and may arrive after the
 * view). The address is an {@link ExtendedUUID} whose UUID is the daemon's incarnation (random per
 * start), with the node name under the key {@value #KEY}; {@link #id} of it is the incarnation's text,
 * which the member's records carry.
 */
public final class NodeAddresses {
    /** The key of the node name in the address. */
    static final String KEY = "railmap.node";
    private static final int MAX_NAME_BYTES = 255;

    private NodeAddresses() {
    }

    /**
     * @param node        this node's name
     * @param incarnation this start of the daemon: the UUID of the address
     * @return a generator of addresses carrying the name (the logical name is the node name too)
     * @throws IllegalArgumentException when the name is longer than 255 bytes of UTF-8
     */
    public static AddressGenerator generator(String node, java.util.UUID incarnation) {
        byte[] name = node.getBytes(StandardCharsets.UTF_8);
        if (name.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("node name is " + name.length + " bytes long; the cluster takes at most " + MAX_NAME_BYTES);
        }
        return new AddressGenerator() {
            // JGroups 5.5 deprecates this method but still declares it abstract: it must be implemented
            @Override
            @SuppressWarnings("deprecation")
            public Address generateAddress() {
                return generateAddress(node);
            }

            @Override
            public Address generateAddress(String logicalName) {
                ExtendedUUID address = new ExtendedUUID(incarnation.getMostSignificantBits(), incarnation.getLeastSignificantBits());
                if (logicalName != null) {
                    NameCache.add(address, logicalName); // as ExtendedUUID.randomUUID(name) does
                }
                return address.put(KEY, name.clone());
            }
        };
    }

    /** @return the node name an address carries, or empty for an address made by someone else */
    public static Optional<String> node(Address address) {
        if (address instanceof ExtendedUUID extended) {
            byte[] name = extended.get(KEY);
            if (name != null && name.length > 0) {
                return Optional.of(new String(name, StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** @return a stable identity for the member: the UUID in full, never its logical name */
    public static String id(Address address) {
        return address instanceof UUID uuid ? uuid.toStringLong() : String.valueOf(address);
    }
}
