package io.railmap.discovery.macos;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.IbPortState;
import io.railmap.discovery.model.Quote;
import io.railmap.matrix.model.PortState;
import java.util.Collections;
import java.util.HashMap;
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
 * <p>An odd line inside a device's block (a state that is no port state, a state line before any
 * port line) costs only that device: it gets a {@linkplain #problem(String) problem}, and the port
 * it backs is skipped. Output with no {@code hca_id} line, or a {@code port} line before any, is
 * not {@code ibv_devinfo} output at all.
 *
 * @param devices  for each device name, its port numbers and their states; a device whose output
 *                 was abbreviated may have no port
 * @param problems for each device with an odd line, the first one, naming the source and line
 */
record IbvDevinfo(Map<String, Map<Integer, PortState>> devices, Map<String, String> problems) {
    private static final Pattern HCA = Pattern.compile("hca_id:\\s*(\\S+)");
    private static final Pattern PORT = Pattern.compile("port:\\s*(\\d{1,4})");
    private static final Pattern STATE = Pattern.compile("state:\\s*(.*)");
    private static final Pattern STATE_VALUE = Pattern.compile("PORT_([A-Z_]{1,32}) \\((\\d{1,4})\\)");

    IbvDevinfo {
        Map<String, Map<Integer, PortState>> copy = new LinkedHashMap<>();
        devices.forEach((device, ports) -> copy.put(device, Map.copyOf(ports)));
        devices = Collections.unmodifiableMap(copy);
        problems = Map.copyOf(problems);
    }

    /**
     * @return the devices listed
     * @throws DiscoveryException when no {@code hca_id} line is found or a {@code port} line
     *                            precedes every {@code hca_id}; the message names the source and
     *                            line
     */
    static IbvDevinfo parse(CommandOutput output) throws DiscoveryException {
        Map<String, Map<Integer, PortState>> devices = new LinkedHashMap<>();
        Map<String, String> problems = new HashMap<>();
        String device = null;
        Integer port = null;
        String[] lines = output.text().split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            String where = output.source() + ": line " + (i + 1) + " " + Quote.value(line);
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
            } else if ((m = STATE.matcher(line)).matches() && device != null) {
                if (port == null) {
                    problems.putIfAbsent(device, where + " is not inside a port");
                } else {
                    try {
                        devices.get(device).put(port, state(m.group(1)));
                    } catch (IllegalArgumentException e) {
                        problems.putIfAbsent(device, where + ": " + e.getMessage());
                    }
                }
            }
        }
        if (devices.isEmpty()) {
            throw new DiscoveryException(output.source() + ": no \"hca_id:\" line");
        }
        return new IbvDevinfo(devices, problems);
    }

    /** @return true when {@code device} is listed */
    boolean lists(String device) {
        return devices.containsKey(device);
    }

    /** @return the state of port {@code port} of {@code device}, when listed */
    Optional<PortState> state(String device, int port) {
        return Optional.ofNullable(devices.getOrDefault(device, Map.of()).get(port));
    }

    /** @return why the block of {@code device} cannot be trusted, when it cannot */
    Optional<String> problem(String device) {
        return Optional.ofNullable(problems.get(device));
    }

    private static PortState state(String text) {
        Matcher m = STATE_VALUE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a port state such as \"PORT_ACTIVE (4)\"");
        }
        return IbPortState.of(Integer.parseInt(m.group(2)), m.group(1)).portState();
    }
}
