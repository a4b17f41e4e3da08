package io.railmap.matrix.model;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * IP addresses as records carry them: IPv4 as a dotted quad without leading zeros
 * ({@code 169.254.205.255}), IPv6 in the compressed form of RFC 5952 section 4 ({@code fe80::1021:1bac:fe1:b5e3}:
 * lower case, no leading zeros in a group, the longest run of two or more zero groups, the first of
 * equals, as {@code ::}), never with a {@code %zone}. Reading never looks a name up: only text made of
 * the characters of a literal reaches {@link InetAddress}, which then parses it and nothing else.
 */
public final class IpAddresses {
    /** The most addresses one port carries in a record. */
    public static final int MAX_PER_PORT = 16;

    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");
    /** Starts with a hex digit or ':' (what InetAddress parses as a literal), at most 45 characters (RFC 4291 text). */
    private static final Pattern IPV6_TEXT = Pattern.compile("[0-9A-Fa-f:][0-9A-Fa-f:.]{1,44}");
    private static final Comparator<String> ORDER = Comparator.comparing((String a) -> !isIpv4(a))
            .thenComparing(IpAddresses::bytes, java.util.Arrays::compareUnsigned);

    private IpAddresses() {
    }

    /**
     * @param what what the text is, for the message ({@code "address"}, {@code "management address"})
     * @param text an IPv4 dotted quad or an IPv6 address in any valid text form, without a zone
     * @return the address in the form records carry
     * @throws IllegalArgumentException when the text is not such an address (the message shows it
     *                                  escaped and cut), has a {@code %zone}, or is an IPv4-mapped
     *                                  IPv6 address ({@code ::ffff:a.b.c.d}: write the IPv4 address)
     */
    public static String canonical(String what, String text) {
        if (IPV4.matcher(text).matches()) {
            return text;
        }
        String shown = what + " \"" + Names.escape(text) + "\"";
        if (text.indexOf('%') >= 0) {
            throw new IllegalArgumentException(shown + " has a zone (%...): a record holds addresses without one");
        }
        if (text.indexOf(':') < 0 || !IPV6_TEXT.matcher(text).matches()) {
            throw new IllegalArgumentException(shown + " is not an IP address (IPv4 a.b.c.d without leading zeros, or IPv6)");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(shown + " is not an IPv6 address");
        }
        if (bytes.length != 16) {
            throw new IllegalArgumentException(shown + " is an IPv4-mapped IPv6 address: write the IPv4 address");
        }
        return format(bytes);
    }

    /** @return true when {@code address}, in the form {@link #canonical} returns, is an IPv4 address */
    public static boolean isIpv4(String address) {
        return address.indexOf(':') < 0;
    }

    /**
     * @param what      what the addresses are, for messages
     * @param addresses addresses in any form {@link #canonical} reads
     * @return them in the form records carry, distinct, IPv4 first, each group in numeric order
     * @throws IllegalArgumentException when an address is bad ({@link #canonical}) or more than
     *                                  {@value #MAX_PER_PORT} distinct ones remain
     */
    public static List<String> forPort(String what, Collection<String> addresses) {
        List<String> out = sorted(addresses.stream().map(a -> canonical(what, a)).toList());
        if (out.size() > MAX_PER_PORT) {
            throw new IllegalArgumentException(what + ": " + out.size() + " addresses; a port carries at most " + MAX_PER_PORT);
        }
        return out;
    }

    /**
     * @param addresses addresses in the form {@link #canonical} returns
     * @return them distinct, IPv4 first, each group in numeric order (the order records carry)
     */
    public static List<String> sorted(Collection<String> addresses) {
        return addresses.stream().distinct().sorted(ORDER).toList();
    }

    /** RFC 5952 section 4: lower-case hex groups without leading zeros, the longest zero run (≥ 2 groups, first of equals) as "::". */
    static String format(byte[] ipv6) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((ipv6[2 * i] & 0xff) << 8) | (ipv6[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    /** The address bytes of a canonical address (parsed, never looked up). */
    private static byte[] bytes(String canonical) {
        if (isIpv4(canonical)) {
            String[] parts = canonical.split("\\.");
            byte[] out = new byte[4];
            for (int i = 0; i < 4; i++) {
                out[i] = (byte) Integer.parseInt(parts[i]);
            }
            return out;
        }
        try {
            return InetAddress.getByName(canonical).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("not a canonical address: " + canonical, e);
        }
    }
}
