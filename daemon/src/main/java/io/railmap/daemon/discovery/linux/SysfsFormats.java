package io.railmap.daemon.discovery.linux;

import io.railmap.daemon.discovery.IbPortState;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text formats of the sysfs attributes discovery reads. Every method takes a file's text
 * without its trailing newline and throws {@link IllegalArgumentException}, quoting the text, when
 * it does not follow the format.
 */
final class SysfsFormats {
    private static final Pattern NUMBERED = Pattern.compile("(\\d{1,9}): (\\S.*)");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?) Gb/sec(?: \\([^)]*\\))?");
    private static final Pattern HEX_BYTES = Pattern.compile("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2})+");
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
            throw new IllegalArgumentException("\"" + text + "\" is not a rate such as \"400 Gb/sec (4X NDR)\"");
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
                throw new IllegalArgumentException("unknown link layer \"" + text + "\" (expected InfiniBand or Ethernet)");
        }
    }

    /**
     * {@code /sys/class/net/<if>/speed}: a whole number of Mb/s, or -1 when the driver does not know.
     *
     * @return the speed in Gb/s; empty for -1 (also printed as 4294967295) or 0
     */
    static Optional<Double> speedGbps(String text) {
        long mbps;
        try {
            mbps = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\" is not a speed in Mb/s");
        }
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
                throw new IllegalArgumentException("carrier \"" + text + "\" is neither 0 nor 1");
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
            throw new IllegalArgumentException("unknown operstate \"" + text + "\"");
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
            throw new IllegalArgumentException("\"" + text + "\" is not a hardware address (hex bytes separated by ':')");
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

    private static int atLeast(int min, String text) {
        try {
            int value = Integer.parseInt(text);
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("\"" + text + "\" is not a whole number of at least " + min);
    }

    private static Matcher numbered(String text, String expected) {
        Matcher m = NUMBERED.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not " + expected);
        }
        return m;
    }
}
