package io.railmap.discovery.model;

import io.railmap.matrix.model.IpAddresses;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the addresses a system lists for a netdev into what a record carries: each in the form of
 * {@link IpAddresses#canonical}, its {@code %zone} dropped, distinct, IPv4 first, at most
 * {@value IpAddresses#MAX_PER_PORT}, each with its prefix length when the listing gives one.
 *
 * <p>A listed address is {@code ADDRESS} or {@code ADDRESS/LENGTH} (the readers of each system write
 * the length so: {@code ifconfig}'s {@code netmask 0xffff0000} is {@code /16}).
 *
 * <p>Errors: the port itself is never lost to an odd address. An address that is no IP address is
 * left out with a note; a length that is not 0–32 for IPv4 or 0–128 for IPv6 is left out with a
 * note, the address kept; more than the cap keeps the first {@value IpAddresses#MAX_PER_PORT} in
 * record order, with one note.
 */
public final class PortAddresses {
    private PortAddresses() {
    }

    /**
     * What a port's record says of its addresses.
     *
     * @param addresses     the addresses to record
     * @param prefixLengths the prefix length of those whose listing gave one
     */
    public record Listed(List<String> addresses, Map<String, Integer> prefixLengths) {
        /** Copies. */
        public Listed {
            addresses = List.copyOf(addresses);
            prefixLengths = Map.copyOf(prefixLengths);
        }
    }

    /**
     * @param source what listed them, for notes (a command, a capture file, the JDK's interface list)
     * @param listed the addresses as listed, each {@code ADDRESS} or {@code ADDRESS/LENGTH} (IPv6 may carry {@code %zone})
     * @param notes  receives one note per address or length left out and one when over the cap, each
     *               {@code "address ... left out: ..."}, values escaped and cut ({@link Quote})
     * @return the addresses and prefix lengths to record
     */
    public static Listed of(String source, Collection<String> listed, List<String> notes) {
        List<String> read = new ArrayList<>();
        Map<String, Integer> lengths = new LinkedHashMap<>();
        for (String text : listed) {
            int slash = text.lastIndexOf('/');
            String address = slash < 0 ? text : text.substring(0, slash);
            int zone = address.indexOf('%');
            String bare = zone > 0 && address.indexOf(':') >= 0 ? address.substring(0, zone) : address;
            String canonical;
            try {
                canonical = IpAddresses.canonical("address", bare);
            } catch (IllegalArgumentException e) {
                notes.add("address " + Quote.value(text) + " left out: " + source + ": it is not an IP address");
                continue;
            }
            read.add(canonical);
            if (slash >= 0) {
                String length = text.substring(slash + 1);
                int max = IpAddresses.isIpv4(canonical) ? 32 : 128;
                if (length.matches("[0-9]{1,3}") && Integer.parseInt(length) <= max) {
                    lengths.putIfAbsent(canonical, Integer.parseInt(length));
                } else {
                    notes.add("prefix length of address " + Quote.value(text) + " left out: " + source + ": it is not 0 to " + max);
                }
            }
        }
        List<String> sorted = IpAddresses.sorted(read);
        if (sorted.size() > IpAddresses.MAX_PER_PORT) {
            notes.add("addresses left out: " + source + " lists " + sorted.size() + "; a record carries "
                    + IpAddresses.MAX_PER_PORT + ", the first in order (IPv4 first, then by number), up to "
                    + sorted.get(IpAddresses.MAX_PER_PORT - 1));
            sorted = sorted.subList(0, IpAddresses.MAX_PER_PORT);
        }
        List<String> kept = sorted;
        lengths.keySet().retainAll(kept);
        return new Listed(kept, lengths);
    }
}
