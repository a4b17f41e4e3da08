package io.railmap.discovery.lldp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.SwitchPort;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads lldpd's neighbour table, as {@code lldpcli -f json0 show neighbors details} prints it, into
 * the switch port at the far end of each interface.
 *
 * <pre>
 * {"lldp": [{"interface": [
 *   {"name": "eth2", "via": "LLDP", "rid": "1", "age": "...",
 *    "chassis": [{"id": [{"type": "mac", "value": "70:06:92:6e:33:18"}], "name": [{"value": "LEAF01"}], ...}],
 *    "port": [{"id": [{"type": "local", "value": "Ethernet184"}], "descr": [...], "ttl": [...]}]},
 *   ...]}]}
 * </pre>
 *
 * <ul>
 *   <li>One {@code interface} entry is one neighbour; an interface that hears several (a hub, a
 *       bridge that forwards LLDP) appears once per neighbour under the same {@code name}. No
 *       neighbour at all: {@code {"lldp": [{}]}}.</li>
 *   <li>The switch port is the chassis ID's value (any type), the system name when sent, and the
 *       port ID's value. Entries learnt by another protocol ({@code via} CDP, EDP...) are left out.</li>
 *   <li>A neighbour whose capabilities are Station alone is a host at the far end of a direct cable
 *       and gives no switch port. Every other neighbour is passed on as heard (a GPU node with
 *       {@code docker0} announces Bridge); the rail table tells a node from a switch
 *       ({@code io.railmap.matrix.fabric.RailTable#switchReached}).</li>
 * </ul>
 *
 * <p>Errors: an interface with several neighbours gets none and a note; a neighbour with a missing
 * or bad field (empty, over 255 bytes, a control character) is skipped with a note; at most
 * {@value #MAX_NEIGHBOURS} neighbours are read.
 *
 * <p>Source: lldpd 1.0.x {@code src/client/json_writer.c}; lldpcli(8) on json0 ("the structure of
 * the JSON object is not affected by the number of interfaces or the number of neighbors"); Station
 * alone only on a host with no bridge and IP forwarding off (lldpd 1.0.22 {@code
 * src/daemon/interfaces.c} {@code interfaces_helper_chassis}, {@code src/daemon/lldpd.c} {@code
 * lldpd_update_localchassis}).
 */
public final class LldpNeighbours {
    /** The most neighbour entries read from one table; the rest are left out with a note. */
    public static final int MAX_NEIGHBOURS = 4096;
    /** The deepest nesting accepted (json0's tables are about 10 deep). */
    static final int MAX_DEPTH = 32;
    /** The longest string accepted anywhere in the document, in chars (a TLV is at most 511 bytes). */
    static final int MAX_STRING_CHARS = 64 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH).maxStringLength(MAX_STRING_CHARS).maxNumberLength(64).build())
            .build());

    private LldpNeighbours() {
    }

    /**
     * @param source what was read, for notes (the command line)
     * @param json   lldpcli's output
     * @return the switch port per interface name, and notes on what was left out
     * @throws IllegalArgumentException naming the source when the text is not JSON or not a json0
     *                                  neighbour table (no {@code "lldp"} array); the message quotes
     *                                  nothing longer than 80 characters
     */
    public static SwitchPorts parse(String source, String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            String why = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalArgumentException(source + ": not JSON (" + Names.escape(why, 160) + ")");
        }
        if (root == null || !root.path("lldp").isArray()) {
            throw new IllegalArgumentException(source + ": not lldpcli's json0 neighbour table (no \"lldp\" array): "
                    + "is lldpcli older than 0.9.8, or run without -f json0?");
        }
        List<String> notes = new ArrayList<>();
        Map<String, List<Optional<SwitchPort>>> byInterface = new LinkedHashMap<>();
        int seen = 0;
        int over = 0;
        for (JsonNode table : root.path("lldp")) {
            for (JsonNode entry : table.path("interface")) {
                if (seen >= MAX_NEIGHBOURS) {
                    over++;
                    continue;
                }
                seen++;
                String name = entry.path("name").isTextual() ? entry.path("name").asText() : null;
                if (name == null || name.isEmpty()) {
                    notes.add(source + ": neighbour " + seen + " names no local interface; skipped");
                    continue;
                }
                String via = entry.path("via").asText("");
                if (!via.equals("LLDP")) {
                    continue;
                }
                Optional<SwitchPort> port;
                try {
                    port = stationOnly(entry) ? Optional.empty() : Optional.of(switchPort(entry));
                } catch (IllegalArgumentException e) {
                    notes.add(source + ": neighbour " + seen + " on " + Quote.value(name) + ": " + e.getMessage() + "; skipped");
                    port = Optional.empty();
                }
                byInterface.computeIfAbsent(name, n -> new ArrayList<>()).add(port);
            }
        }
        if (over > 0) {
            // first, so that it outlives SwitchPorts' cap on notes when many neighbours were skipped too
            notes.add(0, source + ": " + (seen + over) + " neighbours, more than " + MAX_NEIGHBOURS + " are read; the last " + over + " left out");
        }
        Map<String, SwitchPort> ports = new LinkedHashMap<>();
        byInterface.forEach((name, neighbours) -> {
            if (neighbours.size() > 1) {
                notes.add("interface " + Quote.value(name) + " hears " + neighbours.size() + " LLDP neighbours (a hub, or a bridge that "
                        + "forwards LLDP): no switch port for it");
            } else {
                neighbours.get(0).ifPresent(p -> ports.put(name, p));
            }
        });
        return new SwitchPorts(ports, notes);
    }

    /**
     * @return true when the neighbour says it is an end station and nothing else (system
     *         capabilities: Station enabled, no other enabled): a host at the far end of a direct
     *         cable running lldpd, not a switch. A neighbour that sends no capabilities, or others, is
     *         passed on.
     */
    private static boolean stationOnly(JsonNode entry) {
        boolean station = false;
        for (JsonNode capability : entry.path("chassis").path(0).path("capability")) {
            if (capability.path("enabled").asBoolean(false)) {
                if (!capability.path("type").asText("").equals("Station")) {
                    return false;
                }
                station = true;
            }
        }
        return station;
    }

    private static SwitchPort switchPort(JsonNode entry) {
        String chassis = value(entry.path("chassis").path(0).path("id"), "chassis ID");
        Optional<String> name = optionalValue(entry.path("chassis").path(0).path("name"), "system name");
        String port = value(entry.path("port").path(0).path("id"), "port ID");
        return new SwitchPort(FarEndSource.LLDP, chassis, name, port);
    }

    private static String value(JsonNode field, String what) {
        return optionalValue(field, what).orElseThrow(() -> new IllegalArgumentException("no " + what));
    }

    /** A json0 field: an array of one object whose {@code value} is the text. */
    private static Optional<String> optionalValue(JsonNode field, String what) {
        if (field.isMissingNode() || field.isNull()) {
            return Optional.empty();
        }
        JsonNode value = field.path(0).path("value");
        if (!field.isArray() || !value.isTextual()) {
            throw new IllegalArgumentException(what + " is not [{\"value\": text}]");
        }
        return Optional.of(value.asText());
    }
}
