package io.railmap.discovery.model;

import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.RdmaLimits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA devices {@code ibv_devinfo -v} lists, their port states and their limits. Read lines:
 * {@code hca_id: rdma_en3} starts a device, {@code port: 1} starts one of its ports, and
 * {@code state: PORT_ACTIVE (4)} gives that port's state; every other line ({@code transport},
 * {@code link_layer}, the {@code ...} of abbreviated output) is ignored.
 *
 * <p>With {@code -v}, the device's own lines before its first port give its limits ({@link RdmaLimits}):
 * {@code max_qp:}, {@code max_pd:}, {@code max_mr:}, {@code max_cqe:} and a decimal count (rdma-core's
 * {@code libibverbs/examples/devinfo.c} prints each {@code ibv_device_attr} field so; macOS's
 * {@code ibv_devinfo} the same, also abbreviated and reflowed as in Apple's TN3205). A value that is no
 * count from 0 to 2^31-1, or a second line for one limit, costs that limit only, with a
 * {@linkplain #limitNotes(String) note} naming the line.
 *
 * <p>An odd line inside a device's block (a state that is no port state, a state line before any
 * port line) costs only that device: it gets a {@linkplain #problem(String) problem}, and the port
 * it backs is skipped. Output with no {@code hca_id} line, or a {@code port} line before any, is
 * not {@code ibv_devinfo} output at all.
 *
 * @param devices  for each device name, its port numbers and their states; a device whose output
 *                 was abbreviated may have no port
 * @param problems for each device with an odd line, the first one, naming the source and line
 * @param limits   for each device whose block gives a limit, its limits
 * @param limitNotes for each device with a limit line left out, why, naming the source and line
 */
public record IbvDevinfo(Map<String, Map<Integer, PortState>> devices, Map<String, String> problems, Map<String, RdmaLimits> limits,
                  Map<String, List<String>> limitNotes) {
    private static final Pattern LIMIT = Pattern.compile("(max_qp|max_pd|max_mr|max_cqe):\\s*(\\S.*)");
    private static final Pattern COUNT = Pattern.compile("\\d{1,10}");
    private static final List<String> LIMITS = List.of("max_qp", "max_pd", "max_mr", "max_cqe");
    private static final Pattern HCA = Pattern.compile("hca_id:\\s*(\\S+)");
    private static final Pattern PORT = Pattern.compile("port:\\s*(\\d{1,4})");
    private static final Pattern STATE = Pattern.compile("state:\\s*(.*)");
    private static final Pattern STATE_VALUE = Pattern.compile("PORT_([A-Z_]{1,32}) \\((\\d{1,4})\\)");

    /**
     * Copies the maps.
     *
     * @throws NullPointerException when a component is null
     */
    public IbvDevinfo {
        Map<String, Map<Integer, PortState>> copy = new LinkedHashMap<>();
        devices.forEach((device, ports) -> copy.put(device, Map.copyOf(ports)));
        devices = Collections.unmodifiableMap(copy);
        problems = Map.copyOf(problems);
        limits = Map.copyOf(limits);
        Map<String, List<String>> notes = new LinkedHashMap<>();
        limitNotes.forEach((device, list) -> notes.put(device, List.copyOf(list)));
        limitNotes = Collections.unmodifiableMap(notes);
    }

    /**
     * @param source what the text came from (a file, a command line), for messages
     * @param text   the output of {@code ibv_devinfo} or {@code ibv_devinfo -v}
     * @return the devices listed
     * @throws DiscoveryException when no {@code hca_id} line is found or a {@code port} line
     *                            precedes every {@code hca_id}; the message names the source and
     *                            line
     */
    public static IbvDevinfo parse(String source, String text) throws DiscoveryException {
        Map<String, Map<Integer, PortState>> devices = new LinkedHashMap<>();
        Map<String, String> problems = new HashMap<>();
        Map<String, Map<String, Integer>> values = new LinkedHashMap<>();
        Map<String, List<String>> limitNotes = new LinkedHashMap<>();
        String device = null;
        Integer port = null;
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            String where = source + ": line " + (i + 1) + " " + Quote.value(line);
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
            } else if ((m = LIMIT.matcher(line)).matches() && device != null && port == null) {
                Map<String, Integer> own = values.computeIfAbsent(device, d -> new LinkedHashMap<>());
                String value = m.group(2).strip();
                String why = own.containsKey(m.group(1)) ? "a second " + m.group(1) + " line"
                        : !COUNT.matcher(value).matches() || Long.parseLong(value) > Integer.MAX_VALUE
                        ? "not a count from 0 to " + Integer.MAX_VALUE : null;
                if (why == null) {
                    own.put(m.group(1), Integer.valueOf(value));
                } else {
                    own.putIfAbsent(m.group(1), null);
                    limitNotes.computeIfAbsent(device, d -> new ArrayList<>()).add(where + ": " + why + "; " + m.group(1) + " left out");
                }
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
            throw new DiscoveryException(source + ": no \"hca_id:\" line");
        }
        Map<String, RdmaLimits> limits = new LinkedHashMap<>();
        values.forEach((name, own) -> RdmaLimits.of(own.get(LIMITS.get(0)), own.get(LIMITS.get(1)), own.get(LIMITS.get(2)),
                own.get(LIMITS.get(3))).ifPresent(l -> limits.put(name, l)));
        return new IbvDevinfo(devices, problems, limits, limitNotes);
    }

    /** @return the limits of {@code device} its block gives, when it gives any ({@code ibv_devinfo -v}) */
    public Optional<RdmaLimits> limits(String device) {
        return Optional.ofNullable(limits.get(device));
    }

    /** @return why limit lines of {@code device} were left out, each naming the source and line; empty when none was */
    public List<String> limitNotes(String device) {
        return limitNotes.getOrDefault(device, List.of());
    }

    /** @return true when {@code device} is listed */
    public boolean lists(String device) {
        return devices.containsKey(device);
    }

    /** @return the state of port {@code port} of {@code device}, when listed */
    public Optional<PortState> state(String device, int port) {
        return Optional.ofNullable(devices.getOrDefault(device, Map.of()).get(port));
    }

    /** @return why the block of {@code device} cannot be trusted, when it cannot */
    public Optional<String> problem(String device) {
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
