package io.railmap.discovery.linux;

import io.railmap.discovery.model.IbPortState;
import io.railmap.discovery.model.Quote;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text formats of the sysfs attributes discovery reads. Every method takes a file's text
 * without its trailing newline and throws {@link IllegalArgumentException}, quoting the text
 * ({@link Quote}), when it does not follow the format. Numbers have a bounded count of digits, so a
 * 401-digit value is an odd value, never an overflow or an infinite rate.
 */
final class SysfsFormats {
    private static final Pattern NUMBERED = Pattern.compile("(\\d{1,9}): (\\S.{0,31})");
    /** Up to 999999.999999 Gb/s; the parenthesised width and speed ("4X NDR") are printable ASCII. */
    private static final Pattern RATE = Pattern.compile("(\\d{1,6}(?:\\.\\d{1,6})?) Gb/sec(?: \\([\\x20-\\x28\\x2a-\\x7e]{0,32}\\))?");
    /** 2 to 32 bytes (Linux's MAX_ADDR_LEN). */
    private static final Pattern HEX_BYTES = Pattern.compile("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){1,31}");
    /** Mb/s: -1 (unknown) or up to ten digits. */
    private static final Pattern SPEED = Pattern.compile("-1|\\d{1,10}");
    /** A whole number of up to nine digits: always an {@code int}. */
    private static final Pattern WHOLE = Pattern.compile("\\d{1,9}");
    /**
     * A Linux netdev name: 1 to 15 bytes (IFNAMSIZ less the NUL), no '/', ':' or white space
     * (dev_valid_name), and here no control character.
     */
    private static final Pattern NETDEV = Pattern.compile("[\\x21-\\x2e\\x30-\\x39\\x3b-\\x7e]{1,15}");
    /** A UUID as the kernel's {@code %pUb} prints it (lower case; upper case accepted). */
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** A Thunderbolt lane speed as {@code speed_show} prints it: {@code "%u.0 Gb/s"}. */
    private static final Pattern LANE_SPEED = Pattern.compile("(\\d{1,4})\\.0 Gb/s");
    /** A peer host's name: printable ASCII, at most 64 characters (a {@code utsname} node name). */
    private static final Pattern HOST_NAME = Pattern.compile("[\\x20-\\x7e]{1,64}");
    private static final int PHYS_STATE_LINK_UP = 5;
    /** What {@code speed} holds when the driver does not know: -1, or -1 printed as an unsigned 32-bit number by old kernels. */
    private static final long SPEED_UNKNOWN_UNSIGNED = 4294967295L;
    private static final Set<String> OPERSTATES =
            Set.of("unknown", "notpresent", "down", "lowerlayerdown", "testing", "dormant", "up");

    private SysfsFormats() {
    }

    /**
     * {@code ports/<n>/state}: {@code "4: ACTIVE"}.
     *
     * @return the port state ({@link IbPortState#portState()})
     */
    static PortState ibState(String text) {
        Matcher m = numbered(text, "\"<number>: <STATE>\" such as \"4: ACTIVE\"");
        return IbPortState.of(Integer.parseInt(m.group(1)), m.group(2)).portState();
    }

    /**
     * {@code ports/<n>/phys_state}: {@code "5: LinkUp"}.
     *
     * @return true when the physical link is up (state 5)
     */
    static boolean physLinkUp(String text) {
        Matcher m = numbered(text, "\"<number>: <Name>\" such as \"5: LinkUp\"");
        return Integer.parseInt(m.group(1)) == PHYS_STATE_LINK_UP;
    }

    /**
     * {@code ports/<n>/rate}: {@code "400 Gb/sec (4X NDR)"}, {@code "2.5 Gb/sec (1X SDR)"}.
     *
     * @return the rate in Gb/s
     */
    static double rateGbps(String text) {
        Matcher m = RATE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a rate such as \"400 Gb/sec (4X NDR)\"");
        }
        return Double.parseDouble(m.group(1));
    }

    /**
     * {@code ports/<n>/link_layer}: {@code "InfiniBand"} or {@code "Ethernet"}.
     *
     * @return {@link PortKind#INFINIBAND} or {@link PortKind#ROCE}
     */
    static PortKind linkLayer(String text) {
        switch (text) {
            case "InfiniBand":
                return PortKind.INFINIBAND;
            case "Ethernet":
                return PortKind.ROCE;
            default:
                throw new IllegalArgumentException("unknown link layer " + Quote.value(text) + " (expected InfiniBand or Ethernet)");
        }
    }

    /**
     * {@code /sys/class/net/<if>/speed}: a whole number of Mb/s, or -1 when the driver does not know.
     *
     * @return the speed in Gb/s; empty for -1 (also printed as 4294967295) or 0
     */
    static Optional<Double> speedGbps(String text) {
        if (!SPEED.matcher(text).matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a speed in Mb/s (-1 or up to ten digits)");
        }
        long mbps = Long.parseLong(text);
        if (mbps <= 0 || mbps == SPEED_UNKNOWN_UNSIGNED) {
            return Optional.empty();
        }
        return Optional.of(mbps / 1000.0);
    }

    /**
     * {@code /sys/class/net/<if>/carrier}: {@code 0} or {@code 1}.
     *
     * @return true for {@code 1}
     */
    static boolean carrier(String text) {
        switch (text) {
            case "1":
                return true;
            case "0":
                return false;
            default:
                throw new IllegalArgumentException("carrier " + Quote.value(text) + " is neither 0 nor 1");
        }
    }

    /**
     * {@code /sys/class/net/<if>/operstate}: RFC 2863 states in lower case.
     *
     * @return true for {@code up} and {@code unknown} (drivers that do not track operstate, such as
     *         loopback, say {@code unknown}); false for the other states
     */
    static boolean operUp(String text) {
        if (!OPERSTATES.contains(text)) {
            throw new IllegalArgumentException("unknown operstate " + Quote.value(text));
        }
        return text.equals("up") || text.equals("unknown");
    }

    /**
     * {@code /sys/class/net/<if>/address}: hex bytes separated by {@code ':'}; empty for netdevs
     * without a hardware address (tunnels).
     *
     * @return the address in lower case; empty when the file is empty
     */
    static Optional<String> hardwareAddress(String text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        if (!HEX_BYTES.matcher(text).matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a hardware address (2 to 32 hex bytes separated by ':')");
        }
        return Optional.of(text.toLowerCase(Locale.ROOT));
    }

    /**
     * A whole number of at least 1 ({@code mtu}, {@code ifindex}, a port directory's name).
     *
     * @return the number
     */
    static int positive(String text) {
        return atLeast(1, text);
    }

    /**
     * A whole number of at least 0 (a GID table entry's name).
     *
     * @return the number
     */
    static int nonNegative(String text) {
        return atLeast(0, text);
    }

    /**
     * A netdev name read from a file ({@code gid_attrs/ndevs/<i>}), which may be anything, unlike a
     * name listed in {@code /sys/class/net}.
     *
     * @return the name
     */
    static String netdev(String text) {
        if (!NETDEV.matcher(text).matches() || text.equals(".") || text.equals("..")) {
            throw new IllegalArgumentException(Quote.value(text)
                    + " is not a netdev name (1 to 15 characters, no '/', ':', white space or control character)");
        }
        return text;
    }

    /**
     * A Thunderbolt {@code unique_id}: a UUID as {@code %pUb} prints it
     * ({@code c6030000-0080-7518-2391-a4e51a82e819}; drivers/thunderbolt/switch.c and xdomain.c
     * {@code unique_id_show}).
     *
     * @return the UUID as written
     */
    static String uuid(String text) {
        if (!UUID.matcher(text).matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a UUID (8-4-4-4-12 hex digits)");
        }
        return text;
    }

    /**
     * An XDomain's {@code rx_speed} or {@code tx_speed}: the speed of one lane, {@code "20.0 Gb/s"}
     * (drivers/thunderbolt/xdomain.c {@code speed_show}: {@code "%u.0 Gb/s"}).
     *
     * @return Gb/s per lane
     */
    static double laneSpeedGbps(String text) {
        Matcher m = LANE_SPEED.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a lane speed such as \"20.0 Gb/s\"");
        }
        return Integer.parseInt(m.group(1));
    }

    /**
     * An XDomain's {@code rx_lanes} or {@code tx_lanes}: 1, 2, or 3 for the wider side of an
     * asymmetric link (drivers/thunderbolt/xdomain.c {@code rx_lanes_show}, {@code tx_lanes_show}).
     *
     * @return the lanes
     */
    static int lanes(String text) {
        if (!text.equals("1") && !text.equals("2") && !text.equals("3")) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a count of lanes (1, 2 or 3)");
        }
        return Integer.parseInt(text);
    }

    /**
     * An XDomain's {@code device_name}: the peer host's name, printable ASCII up to 64 characters.
     *
     * @return the name
     */
    static String hostName(String text) {
        if (!HOST_NAME.matcher(text).matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not a host name (1 to 64 printable ASCII characters)");
        }
        return text;
    }

    private static int atLeast(int min, String text) {
        if (WHOLE.matcher(text).matches()) {
            int value = Integer.parseInt(text);
            if (value >= min) {
                return value;
            }
        }
        throw new IllegalArgumentException(Quote.value(text) + " is not a whole number of at least " + min
                + " (up to nine digits)");
    }

    private static Matcher numbered(String text, String expected) {
        Matcher m = NUMBERED.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(Quote.value(text) + " is not " + expected);
        }
        return m;
    }
}
