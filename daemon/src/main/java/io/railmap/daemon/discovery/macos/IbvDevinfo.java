package io.railmap.daemon.discovery.macos;

import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.daemon.discovery.IbPortState;
import io.railmap.matrix.model.PortState;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA devices {@code ibv_devinfo} lists and their port states. Read lines:
 * {@code hca_id: rdma_en3} starts a device, {@code port: 1} starts one of its ports, and
 * {@code state: PORT_ACTIVE (4)} gives that port's state; every other line ({@code transport},
 * {@code link_layer}, the {@code ...} of abbreviated output) is ignored.
 *
 * @param devices for each device name, its port numbers and their states; a device whose output
 *                was abbreviated may have no port
 */
record IbvDevinfo(Map<String, Map<Integer, PortState>> devices) {
    private static final Pattern HCA = Pattern.compile("hca_id:\\s*(\\S+)");
    private static final Pattern PORT = Pattern.compile("port:\\s*(\\d{1,4})");
    private static final Pattern STATE = Pattern.compile("state:\\s*(.*)");
    private static final Pattern STATE_VALUE = Pattern.compile("PORT_([A-Z_]+) \\((\\d{1,4})\\)");

    IbvDevinfo {
        Map<String, Map<Integer, PortState>> copy = new LinkedHashMap<>();
        devices.forEach((device, ports) -> copy.put(device, Map.copyOf(ports)));
        devices = Collections.unmodifiableMap(copy);
    }

    /**
     * @return the devices listed
     * @throws DiscoveryException when no {@code hca_id} line is found, a {@code port} line precedes
     *                            every {@code hca_id}, or a {@code state} line is outside a port or
     *                            holds an unknown state; the message names the source and line
     */
    static IbvDevinfo parse(CommandOutput output) throws DiscoveryException {
        Map<String, Map<Integer, PortState>> devices = new LinkedHashMap<>();
        String device = null;
        Integer port = null;
        String[] lines = output.text().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            String where = output.source() + ": line " + (i + 1) + " \"" + line + "\"";
            Matcher m;
            if ((m = HCA.matcher(line)).lookingAt()) {
                device = m.group(1);
                port = null;
                devices.putIfAbsent(device, new LinkedHashMap<>());
            } else if ((m = PORT.matcher(line)).matches()) {
                if (device == null) {
                    throw new DiscoveryException(where + " comes before any hca_id line");
                }
                port = Integer.valueOf(m.group(1));
            } else if ((m = STATE.matcher(line)).matches()) {
                if (port == null) {
                    throw new DiscoveryException(where + " is not inside a port");
                }
                devices.get(device).put(port, state(where, m.group(1)));
            }
        }
        if (devices.isEmpty()) {
            throw new DiscoveryException(output.source() + ": no \"hca_id:\" line");
        }
        return new IbvDevinfo(devices);
    }

    /** @return true when {@code device} is listed */
    boolean lists(String device) {
        return devices.containsKey(device);
    }

    /** @return the state of port {@code port} of {@code device}, when listed */
    Optional<PortState> state(String device, int port) {
        return Optional.ofNullable(devices.getOrDefault(device, Map.of()).get(port));
    }

    private static PortState state(String where, String text) throws DiscoveryException {
        Matcher m = STATE_VALUE.matcher(text);
        if (!m.matches()) {
            throw new DiscoveryException(where + ": not a port state such as \"PORT_ACTIVE (4)\"");
        }
        try {
            return IbPortState.of(Integer.parseInt(m.group(2)), m.group(1)).portState();
        } catch (IllegalArgumentException e) {
            throw new DiscoveryException(where + ": " + e.getMessage());
        }
    }
}
