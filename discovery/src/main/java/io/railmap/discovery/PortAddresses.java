package io.railmap.discovery;

import io.railmap.matrix.model.IpAddresses;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Turns the addresses a system lists for a netdev into what a record carries: each in the form of
 * {@link IpAddresses#canonical}, its {@code %zone} dropped, distinct, IPv4 first, at most
 * {@value IpAddresses#MAX_PER_PORT}. An address that is no IP address is left out with a note; more
 * than the cap keeps the first {@value IpAddresses#MAX_PER_PORT} in record order, with one note. The
 * port itself is never lost to an odd address.
 */
public final class PortAddresses {
    private PortAddresses() {
    }

    /**
     * @param source what listed them, for notes (a command, a capture file, the JDK's interface list)
     * @param listed the addresses as listed (IPv6 may carry {@code %zone})
     * @param notes  receives one note per address left out and one when over the cap, each
     *               {@code "address ... left out: ..."}, values escaped and cut ({@link Quote})
     * @return the addresses to record
     */
    public static List<String> of(String source, Collection<String> listed, List<String> notes) {
        List<String> read = new ArrayList<>();
        for (String text : listed) {
            int zone = text.indexOf('%');
            String bare = zone > 0 && text.indexOf(':') >= 0 ? text.substring(0, zone) : text;
            try {
                read.add(IpAddresses.canonical("address", bare));
            } catch (IllegalArgumentException e) {
                notes.add("address " + Quote.value(text) + " left out: " + source + ": it is not an IP address");
            }
        }
        List<String> sorted = IpAddresses.sorted(read);
        if (sorted.size() <= IpAddresses.MAX_PER_PORT) {
            return sorted;
        }
        notes.add("addresses left out: " + source + " lists " + sorted.size() + "; a record carries "
                + IpAddresses.MAX_PER_PORT + ", the first in order (IPv4 first, then by number), up to "
                + sorted.get(IpAddresses.MAX_PER_PORT - 1));
        return sorted.subList(0, IpAddresses.MAX_PER_PORT);
    }
}
