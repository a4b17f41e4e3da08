package io.railmap.daemon.discovery.macos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.discovery.DiscoveryException;
import io.railmap.daemon.discovery.SkipException;
import io.railmap.matrix.model.Thunderbolt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code system_profiler SPThunderboltDataType -json}: a top-level
 * {@code SPThunderboltDataType} array with one object per host bus. A bus holds {@code _name},
 * {@code domain_uuid_key} and {@code receptacle_1_tag} ({@code receptacle_id_key} "6",
 * {@code current_speed_key} "80 Gb/s", or "Up to 120 Gb/s" when nothing is linked); what is linked
 * to it is listed in nested {@code _items} arrays.
 *
 * <p><b>Peer hosts.</b> An item with a {@code domain_uuid_key} or a {@code services_title} list
 * (XDomain services such as {@code service_ip}) is a peer host, another Mac; any other item is a
 * device (a dock, a drive enclosure), whose own {@code _items} are searched in turn. A peer host
 * found below a device is behind a hub. A full capture gives every peer host a domain UUID. The
 * trimmed captures of real machines that railmap's tests use lost {@code domain_uuid_key} to their
 * author's trimming but kept {@code services_title}, so {@code services_title} alone is accepted;
 * the peer's domain UUID is then left empty rather than guessed.
 */
final class SystemProfilerThunderbolt {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern SPEED = Pattern.compile("(\\d+(?:\\.\\d+)?) Gb/s");
    private static final Pattern UUID = Pattern.compile(
            "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}");
    private static final Pattern RECEPTACLE = Pattern.compile("[1-9]\\d{0,3}");

    private SystemProfilerThunderbolt() {
    }

    /**
     * @return the bus objects of {@code SPThunderboltDataType}, in document order
     * @throws DiscoveryException when the text is not JSON or has no {@code SPThunderboltDataType}
     *                            array; the message names the source
     */
    static List<JsonNode> buses(CommandOutput output) throws DiscoveryException {
        JsonNode root;
        try {
            root = MAPPER.readTree(output.text());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new DiscoveryException(output.source() + ": not valid JSON" + where + ": " + e.getOriginalMessage());
        }
        JsonNode buses = root == null ? null : root.get("SPThunderboltDataType");
        if (buses == null || !buses.isArray()) {
            throw new DiscoveryException(output.source() + ": no \"SPThunderboltDataType\" array at the top level");
        }
        List<JsonNode> list = new ArrayList<>();
        buses.forEach(list::add);
        return list;
    }

    /**
     * @param bus   a bus object
     * @param index its position in the array
     * @return how to name it in a skip reason: {@code receptacle N} when it says, else its
     *         {@code _name}, else {@code bus #index}
     */
    static String label(JsonNode bus, int index) {
        JsonNode id = bus.path("receptacle_1_tag").path("receptacle_id_key");
        if (id.isTextual()) {
            return "receptacle " + id.asText();
        }
        JsonNode name = bus.path("_name");
        return name.isTextual() ? name.asText() : "bus #" + index;
    }

    /**
     * @param bus a bus object
     * @return what it reports
     * @throws SkipException when it is not an object, lacks {@code _name}, {@code receptacle_1_tag},
     *                       {@code receptacle_id_key} or {@code current_speed_key}, holds an odd
     *                       value, or has more than one peer host
     */
    static ThunderboltBus bus(JsonNode bus) throws SkipException {
        if (!bus.isObject()) {
            throw new SkipException("bus entry is not an object");
        }
        String name = required(bus, "_name");
        JsonNode tag = bus.get("receptacle_1_tag");
        if (tag == null || !tag.isObject()) {
            throw new SkipException(name + " has no receptacle_1_tag object");
        }
        String id = required(tag, "receptacle_id_key");
        if (!RECEPTACLE.matcher(id).matches()) {
            throw new SkipException(name + ": receptacle_id_key \"" + id + "\" is not a receptacle number");
        }
        Optional<Double> speed = speed(name, required(tag, "current_speed_key"));
        Optional<String> domain = uuid(name, bus);

        List<Peer> peers = new ArrayList<>();
        findPeers(name, bus.get("_items"), false, peers);
        if (peers.size() > 1) {
            throw new SkipException(name + ": " + peers.size() + " peer hosts " + peers.stream().map(Peer::name).toList()
                    + " on one receptacle; one peer per Thunderbolt bus is expected");
        }
        Optional<Peer> peer = peers.stream().findFirst();
        Thunderbolt thunderbolt = new Thunderbolt(domain, peer.flatMap(Peer::domainUuid), Integer.parseInt(id), speed,
                peer.map(Peer::behindHub).orElse(false), peer.map(Peer::name));
        return new ThunderboltBus(thunderbolt, peer.isPresent());
    }

    private record Peer(String name, Optional<String> domainUuid, boolean behindHub) {
    }

    private static void findPeers(String bus, JsonNode items, boolean belowDevice, List<Peer> peers) throws SkipException {
        if (items == null) {
            return;
        }
        if (!items.isArray()) {
            throw new SkipException(bus + ": _items is not an array");
        }
        for (JsonNode item : items) {
            if (!item.isObject()) {
                throw new SkipException(bus + ": an _items entry is not an object");
            }
            if (item.has("domain_uuid_key") || item.has("services_title")) {
                peers.add(new Peer(required(item, "_name"), uuid(bus, item), belowDevice));
            } else {
                findPeers(bus, item.get("_items"), true, peers);
            }
        }
    }

    /** "80 Gb/s" is a linked speed; "Up to 120 Gb/s" is a receptacle's capacity with nothing linked. */
    private static Optional<Double> speed(String bus, String text) throws SkipException {
        if (text.startsWith("Up to ")) {
            return Optional.empty();
        }
        Matcher m = SPEED.matcher(text);
        if (!m.matches()) {
            throw new SkipException(bus + ": current_speed_key \"" + text + "\" is not a speed such as \"80 Gb/s\"");
        }
        return Optional.of(Double.parseDouble(m.group(1)));
    }

    private static Optional<String> uuid(String bus, JsonNode node) throws SkipException {
        if (!node.has("domain_uuid_key")) {
            return Optional.empty();
        }
        String text = required(node, "domain_uuid_key");
        if (!UUID.matcher(text).matches()) {
            throw new SkipException(bus + ": domain_uuid_key \"" + text + "\" is not a UUID");
        }
        return Optional.of(text);
    }

    private static String required(JsonNode node, String field) throws SkipException {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new SkipException("no " + field + " in " + describe(node));
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new SkipException(field + " is not a non-empty string in " + describe(node));
        }
        return value.asText();
    }

    private static String describe(JsonNode node) {
        JsonNode name = node.get("_name");
        return name != null && name.isTextual() ? "\"" + name.asText() + "\"" : "an entry without _name";
    }
}
