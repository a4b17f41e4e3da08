package io.railmap.matrix.emit;

import io.railmap.matrix.model.Names;

/** Validation of the IPv4 addresses and ports that jaccl and mlx.launch accept. */
public final class Addresses {
    private Addresses() {
    }

    /**
     * @param what  what the value is, for the message (e.g. {@code "--coordinator"})
     * @param value a dotted-quad IPv4 address such as {@code 10.0.0.1}
     * @return the value
     * @throws IllegalArgumentException when the value is not four numbers 0–255 separated by dots
     */
    public static String ipv4(String what, String value) {
        String[] parts = value.split("\\.", -1);
        boolean ok = parts.length == 4;
        for (int i = 0; ok && i < 4; i++) {
            ok = parts[i].matches("[0-9]{1,3}") && Integer.parseInt(parts[i]) <= 255;
        }
        if (!ok) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not an IPv4 address such as 10.0.0.1 "
                    + "(jaccl's coordinator and mlx.launch's ips take IPv4 only)");
        }
        return value;
    }

    /**
     * @param what  what the value is, for the message
     * @param value {@code IPv4:port}, such as {@code 10.0.0.1:32323}
     * @return the value
     * @throws IllegalArgumentException when the address or the port (1–65535) is malformed
     */
    public static String ipv4AndPort(String what, String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0 || !value.substring(colon + 1).matches("[0-9]{1,5}")
                || Integer.parseInt(value.substring(colon + 1)) < 1 || Integer.parseInt(value.substring(colon + 1)) > 65535) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not IPV4:PORT such as 10.0.0.1:32323");
        }
        ipv4(what, value.substring(0, colon));
        return value;
    }
}
