package io.railmap.matrix.model;

import java.util.List;
import java.util.Objects;

/**
 * A rank's own entry of the hostfile {@code MLX_HOSTFILE} names (MLX's TCP ring backend): the addresses
 * the rank listens on, which its left neighbour connects to, and how many entries (ranks) the file has.
 * Read by the ring backend's rules ({@code RingHostsCodec#entry}); published in the rank's record so that
 * any daemon can put the job's hostfile together again from its ranks and check it (docs/jobs.md).
 *
 * <p>Only what the ring backend's sockets can use and railmap can check is held: an IPv4 dotted quad
 * without leading zeros, a {@code ':'} and a decimal port from 1 to 65535 (the backend's sockets are
 * IPv4, {@code mlx/distributed/utils.cpp} {@code TCPSocket}). An entry with a host name, a service name or
 * any other form is not published at all (the rank then has no entry), never cut: a cut entry would
 * name other wires than the job's.
 *
 * @param ranks     the hostfile's entries, one per rank: the job's size, 1 to {@link JobVariables#MAX_RING_RANKS}
 * @param addresses this rank's {@code "a.b.c.d:port"} strings, in the file's order, at most
 *                  {@link JobVariables#MAX_RING_ADDRESSES}
 */
public record RingEntry(int ranks, List<String> addresses) {
    /** The longest address held, {@code 255.255.255.255:65535}. */
    public static final int MAX_ADDRESS_CHARS = 21;

    /**
     * @throws IllegalArgumentException when {@code ranks} is below 1 or over the bound, there are more
     *                                  than {@link JobVariables#MAX_RING_ADDRESSES} addresses, or one is
     *                                  not of the form above (the message shows it escaped and cut)
     * @throws NullPointerException     when the list or an address is null
     */
    public RingEntry {
        if (ranks < 1 || ranks > JobVariables.MAX_RING_RANKS) {
            throw new IllegalArgumentException("a ring hostfile of " + ranks + " entries: railmap reads 1 to " + JobVariables.MAX_RING_RANKS);
        }
        addresses = List.copyOf(addresses);
        if (addresses.size() > JobVariables.MAX_RING_ADDRESSES) {
            throw new IllegalArgumentException("a ring hostfile entry of " + addresses.size() + " addresses, over "
                    + JobVariables.MAX_RING_ADDRESSES);
        }
        for (String a : addresses) {
            if (!isAddress(Objects.requireNonNull(a, "address"))) {
                throw new IllegalArgumentException("ring address \"" + Names.escape(a, 32) + "\" is not an IPv4 address a.b.c.d (without"
                        + " leading zeros), ':' and a port from 1 to 65535");
            }
        }
    }

    /** @return true when the text is an IPv4 dotted quad without leading zeros, {@code ':'} and a port from 1 to 65535 */
    public static boolean isAddress(String text) {
        int colon = text.indexOf(':');
        if (text.length() > MAX_ADDRESS_CHARS || colon < 0) {
            return false;
        }
        String host = text.substring(0, colon);
        String port = text.substring(colon + 1);
        if (!port.matches("[1-9][0-9]{0,4}") || Integer.parseInt(port) > 65535) {
            return false;
        }
        try {
            return IpAddresses.isIpv4(host) && IpAddresses.canonical("address", host).equals(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @return the host part of each address: what the rank listens on */
    public List<String> ips() {
        return addresses.stream().map(a -> a.substring(0, a.indexOf(':'))).toList();
    }
}
