package io.railmap.daemon.discovery.macos;

import io.railmap.daemon.discovery.DiscoveryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hardware ports listed by {@code networksetup -listallhardwareports}: blocks of
 * {@code Hardware Port: <name>}, {@code Device: <bsd name>} and optionally
 * {@code Ethernet Address: <mac>}, separated by blank lines, followed by a
 * {@code VLAN Configurations} section that is not read. Other {@code Key: value} lines are
 * ignored; any other line is an error.
 *
 * @param ports the blocks, in output order
 */
record HardwarePorts(List<HardwarePort> ports) {
    private static final Pattern KEY_VALUE = Pattern.compile("([A-Za-z][A-Za-z ()\"]*): ?(.*)");
    private static final String VLAN_SECTION = "VLAN Configurations";

    HardwarePorts {
        ports = List.copyOf(ports);
    }

    /**
     * @return the output's hardware ports
     * @throws DiscoveryException when a line has none of the shapes above, a Device or Ethernet
     *                            Address line comes before any Hardware Port line, or there is no
     *                            Hardware Port at all; the message names the source and line
     */
    static HardwarePorts parse(CommandOutput output) throws DiscoveryException {
        List<HardwarePort> ports = new ArrayList<>();
        String name = null;
        Optional<String> device = Optional.empty();
        Optional<String> address = Optional.empty();
        String[] lines = output.text().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.equals(VLAN_SECTION)) {
                break;
            }
            if (line.isEmpty()) {
                continue;
            }
            Matcher m = KEY_VALUE.matcher(line);
            if (!m.matches()) {
                throw new DiscoveryException(output.source() + ": line " + (i + 1) + " \"" + line
                        + "\" is not a \"Key: value\" line of networksetup -listallhardwareports");
            }
            String key = m.group(1);
            String value = m.group(2).strip();
            if (key.equals("Hardware Port")) {
                if (name != null) {
                    ports.add(new HardwarePort(name, device, address));
                }
                name = value;
                device = Optional.empty();
                address = Optional.empty();
            } else if (key.equals("Device") || key.equals("Ethernet Address")) {
                if (name == null) {
                    throw new DiscoveryException(output.source() + ": line " + (i + 1) + " \"" + line
                            + "\" comes before any \"Hardware Port:\" line");
                }
                Optional<String> given = value.isEmpty() || value.equals("N/A") ? Optional.empty() : Optional.of(value);
                if (key.equals("Device")) {
                    device = given;
                } else {
                    address = given;
                }
            }
        }
        if (name != null) {
            ports.add(new HardwarePort(name, device, address));
        }
        if (ports.isEmpty()) {
            throw new DiscoveryException(output.source() + ": no \"Hardware Port:\" line");
        }
        return new HardwarePorts(ports);
    }

    /**
     * @param name a hardware port name, matched exactly ({@code Thunderbolt 3} is not
     *             {@code Thunderbolt Bridge} nor {@code Thunderbolt Ethernet Slot 3})
     * @return the ports of that name, in output order
     */
    List<HardwarePort> named(String name) {
        return ports.stream().filter(p -> p.name().equals(name)).toList();
    }
}
