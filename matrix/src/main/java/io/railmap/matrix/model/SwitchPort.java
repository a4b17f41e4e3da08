package io.railmap.matrix.model;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The switch port at the far end of a port's cable, as the switch tells it: by LLDP (read from
 * lldpd's neighbour table) or by the InfiniBand fabric (the neighbour node and port that
 * infiniband-diags report for the local HCA port).
 *
 * <p>Two ports reach the same switch exactly when their {@code source} and {@code chassis} are equal;
 * the switch's {@code name} is for people and may be absent or change.
 *
 * @param source  where the fact comes from
 * @param chassis the switch's identity: for LLDP the chassis ID as lldpd prints it (a MAC address
 *                {@code 52:54:00:12:34:56}, or a locally assigned name), for InfiniBand the switch's
 *                node GUID ({@code 0x0002c90200401234}, lower case); at most {@value #MAX_BYTES}
 *                bytes of UTF-8, printable
 * @param name    the switch's name: the LLDP system name ({@code leaf0}), the InfiniBand node
 *                description ({@code MF0;leaf-3:MQM8700/U1}); empty when it does not announce one
 * @param port    the switch's port: the LLDP port ID ({@code p1}, {@code Ethernet12}, a MAC), the
 *                InfiniBand port number in decimal ({@code 17})
 */
public record SwitchPort(FarEndSource source, String chassis, Optional<String> name, String port) {
    /** The longest chassis, name or port, in bytes of UTF-8: the limit of an LLDP TLV's value. */
    public static final int MAX_BYTES = 255;

    /**
     * @throws IllegalArgumentException when chassis or port is empty, or a value is longer than
     *                                  {@value #MAX_BYTES} bytes or holds a control or invisible
     *                                  character ({@link Names#printable})
     * @throws NullPointerException     when a component is null
     */
    public SwitchPort {
        Objects.requireNonNull(source, "source");
        chassis = text("switch chassis", chassis);
        name = name.map(n -> text("switch name", n));
        port = text("switch port", port);
        if (source == FarEndSource.INFINIBAND) {
            chassis = chassis.toLowerCase(Locale.ROOT);
        }
    }

    /** @return the switch's identity across sources, {@code lldp:<chassis>} or {@code infiniband:<guid>} */
    public String switchId() {
        return source.externalName() + ":" + chassis;
    }

    /** @return the switch as people name it: its name when it has one, else its chassis */
    public String switchName() {
        return name.orElse(chassis);
    }

    private static String text(String what, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException(what + " \"" + Names.escape(value) + "\" is " + bytes + " bytes of UTF-8, over " + MAX_BYTES);
        }
        return Names.printable(what, value);
    }
}
