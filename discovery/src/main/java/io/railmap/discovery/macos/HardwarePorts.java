package io.railmap.discovery.macos;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.Quote;
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
 * ignored.
 *
 * <p>An odd line costs only its block: a line that is not {@code Key: value}, a Device that is not
 * an interface name, or a Device or Ethernet Address given twice gives the block a
 * {@linkplain HardwarePort#problem() problem}, and a receptacle mapped to it is skipped. An odd line
 * before the first block belongs to no port: it is ignored with a note.
 *
 * @param ports the blocks, in output order
 * @param notes the lines ignored: at most one note, naming the source, the first such line and how
 *              many more there are
 */
record HardwarePorts(List<HardwarePort> ports, List<String> notes) {
    private static final Pattern KEY_VALUE = Pattern.compile("([A-Za-z][A-Za-z ()\"]*): ?(.*)");
    /** A BSD interface name: letters then digits, at most 15 characters (IFNAMSIZ less the NUL). */
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z]{1,12}\\d{1,3}");
    private static final String VLAN_SECTION = "VLAN Configurations";

    HardwarePorts {
        ports = List.copyOf(ports);
        notes = List.copyOf(notes);
    }

    /**
     * @return the output's hardware ports
     * @throws DiscoveryException when there is no Hardware Port line at all; the message names the
     *                            source
     */
    static HardwarePorts parse(CommandOutput output) throws DiscoveryException {
        List<HardwarePort> ports = new ArrayList<>();
        String stray = null;
        int strays = 0;
        Block block = null;
        String[] lines = output.text().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.equals(VLAN_SECTION)) {
                break;
            }
            if (line.isEmpty()) {
                continue;
            }
            String where = output.source() + ": line " + (i + 1) + " " + Quote.value(line);
            Matcher m = KEY_VALUE.matcher(line);
            String key = m.matches() ? m.group(1) : null;
            if ("Hardware Port".equals(key)) {
                if (block != null) {
                    ports.add(block.port());
                }
                block = new Block(m.group(2).strip());
            } else if (block == null) {
                if (key == null || key.equals("Device") || key.equals("Ethernet Address")) {
                    stray = stray == null ? where : stray;
                    strays++;
                }
            } else if (key == null) {
                block.fail(where + " is not a \"Key: value\" line of networksetup -listallhardwareports");
            } else if (key.equals("Device") || key.equals("Ethernet Address")) {
                String value = m.group(2).strip();
                Optional<String> given = value.isEmpty() || value.equals("N/A") ? Optional.empty() : Optional.of(value);
                if (key.equals("Device")) {
                    if (block.device != null) {
                        block.fail(where + ": a second Device line in one hardware port");
                    } else if (given.isPresent() && !DEVICE.matcher(value).matches()) {
                        block.fail(where + ": " + Quote.value(value) + " is not an interface name such as \"en2\"");
                    }
                    block.device = given;
                } else {
                    if (block.address != null) {
                        block.fail(where + ": a second Ethernet Address line in one hardware port");
                    }
                    block.address = given;
                }
            }
        }
        if (block != null) {
            ports.add(block.port());
        }
        if (ports.isEmpty()) {
            throw new DiscoveryException(output.source() + ": no \"Hardware Port:\" line");
        }
        List<String> notes = stray == null ? List.of() : List.of(stray + " comes before any \"Hardware Port:\" line; ignored"
                + (strays > 1 ? " (and " + (strays - 1) + " more such lines)" : ""));
        return new HardwarePorts(ports, notes);
    }

    /**
     * @param name a hardware port name, matched exactly ({@code Thunderbolt 3} is not
     *             {@code Thunderbolt Bridge} nor {@code Thunderbolt Ethernet Slot 3})
     * @return the ports of that name, in output order
     */
    List<HardwarePort> named(String name) {
        return ports.stream().filter(p -> p.name().equals(name)).toList();
    }

    /** One block being read; a field is null until its line is met. */
    private static final class Block {
        private final String name;
        private Optional<String> device;
        private Optional<String> address;
        private String problem;

        Block(String name) {
            this.name = name;
        }

        void fail(String why) {
            if (problem == null) {
                problem = why;
            }
        }

        HardwarePort port() {
            return new HardwarePort(name, device == null ? Optional.empty() : device,
                    address == null ? Optional.empty() : address, Optional.ofNullable(problem));
        }
    }
}
