package io.railmap.matrix.address;

import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.Names;

/**
 * An IPv4 subnet: a network address and a prefix length, as {@code 169.254.1.0/30}.
 *
 * @param network      the network address as an unsigned 32-bit number, its host bits zero
 * @param prefixLength the prefix length, 0–32
 */
public record Ipv4Subnet(long network, int prefixLength) {
    /** The IPv4 link-local block (RFC 3927): what macOS self-assigns every Thunderbolt port. */
    public static final Ipv4Subnet LINK_LOCAL = parse("link-local block", "169.254.0.0/16");

    /** @throws IllegalArgumentException when the prefix length is not 0–32 or the network has host bits set */
    public Ipv4Subnet {
        if (prefixLength < 0 || prefixLength > 32) {
            throw new IllegalArgumentException("an IPv4 prefix length is 0 to 32, not " + prefixLength);
        }
        if (network < 0 || network > 0xffffffffL || (network & ~mask(prefixLength) & 0xffffffffL) != 0) {
            throw new IllegalArgumentException(text(network) + "/" + prefixLength + " has host bits set");
        }
    }

    /**
     * @param address      an IPv4 address, dotted quad
     * @param prefixLength 0–32
     * @return the subnet of that length that holds the address
     * @throws IllegalArgumentException when the address is not IPv4 or the length is out of range
     */
    public static Ipv4Subnet of(String address, int prefixLength) {
        if (prefixLength < 0 || prefixLength > 32) {
            throw new IllegalArgumentException("an IPv4 prefix length is 0 to 32, not " + prefixLength);
        }
        return new Ipv4Subnet(number(address) & mask(prefixLength), prefixLength);
    }

    /**
     * @param what what the text is, for the message ({@code "--pool"})
     * @param cidr {@code a.b.c.d/len}
     * @return the subnet
     * @throws IllegalArgumentException when the text is not an IPv4 address, a slash and a length 0–32,
     *                                  or the address has host bits set (naming the network it means)
     */
    public static Ipv4Subnet parse(String what, String cidr) {
        int slash = cidr.indexOf('/');
        String shown = what + " \"" + Names.escape(cidr) + "\"";
        if (slash < 0 || !cidr.substring(slash + 1).matches("[0-9]{1,2}") || !isIpv4(cidr.substring(0, slash))) {
            throw new IllegalArgumentException(shown + " is not an IPv4 subnet such as 169.254.0.0/16");
        }
        int length = Integer.parseInt(cidr.substring(slash + 1));
        if (length > 32) {
            throw new IllegalArgumentException(shown + ": an IPv4 prefix length is 0 to 32");
        }
        long address = number(cidr.substring(0, slash));
        Ipv4Subnet subnet = new Ipv4Subnet(address & mask(length), length);
        if (subnet.network != address) {
            throw new IllegalArgumentException(shown + " has host bits set: the subnet is " + subnet);
        }
        return subnet;
    }

    /** @return true when the text is an IPv4 dotted quad as records carry it */
    public static boolean isIpv4(String text) {
        try {
            return IpAddresses.isIpv4(text) && IpAddresses.canonical("address", text).equals(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @return true when this subnet holds the IPv4 address */
    public boolean contains(String address) {
        return (number(address) & mask(prefixLength)) == network;
    }

    /** @return true when the two subnets share an address (one holds the other) */
    public boolean overlaps(Ipv4Subnet other) {
        int shorter = Math.min(prefixLength, other.prefixLength);
        return (network & mask(shorter)) == (other.network & mask(shorter));
    }

    /** @return how many addresses the subnet spans, network and broadcast included */
    public long size() {
        return 1L << (32 - prefixLength);
    }

    /**
     * @param offset 0 for the network address, up to {@link #size()} − 1
     * @return the address at that offset
     * @throws IllegalArgumentException when the offset is outside the subnet
     */
    public String address(long offset) {
        if (offset < 0 || offset >= size()) {
            throw new IllegalArgumentException("offset " + offset + " is outside " + this);
        }
        return text(network + offset);
    }

    /** @return the netmask as a dotted quad ({@code 255.255.255.252}) */
    public String netmask() {
        return text(mask(prefixLength));
    }

    /** @return {@code a.b.c.d/len} */
    @Override
    public String toString() {
        return text(network) + "/" + prefixLength;
    }

    /** @return the unsigned 32-bit value of an IPv4 dotted quad */
    static long number(String address) {
        if (!isIpv4(address)) {
            throw new IllegalArgumentException("\"" + Names.escape(address) + "\" is not an IPv4 address such as 169.254.1.1");
        }
        long value = 0;
        for (String octet : address.split("\\.")) {
            value = value << 8 | Integer.parseInt(octet);
        }
        return value;
    }

    private static long mask(int prefixLength) {
        return prefixLength == 0 ? 0 : 0xffffffffL << (32 - prefixLength) & 0xffffffffL;
    }

    private static String text(long value) {
        return (value >>> 24 & 0xff) + "." + (value >>> 16 & 0xff) + "." + (value >>> 8 & 0xff) + "." + (value & 0xff);
    }
}
