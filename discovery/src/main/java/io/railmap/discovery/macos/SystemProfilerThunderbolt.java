package io.railmap.discovery.macos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.model.Names;
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
 *
 * <p><b>Odd values.</b> The receptacle number and the peer structure are required: without them
 * the bus is skipped. The link speed, both domain UUIDs and the peer's name are optional: an odd
 * one is dropped to unknown with a note (an unknown speed makes the link no RDMA link, an unknown
 * UUID leaves the cable to the probe to confirm).
 */
final class SystemProfilerThunderbolt {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Up to 9999.999 Gb/s. */
    private static final Pattern SPEED = Pattern.compile("(\\d{1,4}(?:\\.\\d{1,3})?) Gb/s");
    private static final Pattern UUID = Pattern.compile(
            "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}");
    private static final Pattern RECEPTACLE = Pattern.compile("[1-9]\\d{0,3}");
    /** Longest peer name kept, in characters (macOS computer names are at most 63 bytes). */
    static final int MAX_PEER_NAME_CHARS = 128;

    private SystemProfilerThunderbolt() {
    }

    /**
     * @return the bus objects of {@code SPThunderboltDataType}, in document order
     * @throws DiscoveryException when the text is not JSON (or nests deeper than Jackson's limit) or
     *                            has no {@code SPThunderboltDataType} array; the message names the
     *                            source
     */
    static List<JsonNode> buses(CommandOutput output) throws DiscoveryException {
        JsonNode root;
        try {
            root = MAPPER.readTree(output.text());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new DiscoveryException(output.source() + ": not valid JSON" + where + ": "
                    + Names.escape(String.valueOf(e.getOriginalMessage()), Quote.PATH_CHARS));
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
     * @return how to name it in a skip: {@code receptacle N} when it says, else its {@code _name},
     *         else {@code bus #index} (shown escaped by the caller)
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
     * @param bus   a bus object
     * @param where the source and the bus, for reasons: {@code <file>: bus "thunderboltusb4_bus_0"}
     * @return what it reports, and the optional fields dropped
     * @throws SkipException when it is not an object, lacks {@code receptacle_1_tag} or
     *                       {@code receptacle_id_key}, the receptacle is not a number from 1 to 9999,
     *                       {@code _items} is not an array of objects, or it has more than one peer
     *                       host
     */
    static ThunderboltBus bus(JsonNode bus, String where) throws SkipException {
        if (!bus.isObject()) {
            throw new SkipException(where + ": not an object");
        }
        JsonNode tag = bus.get("receptacle_1_tag");
        if (tag == null || !tag.isObject()) {
            throw new SkipException(where + ": no receptacle_1_tag object");
        }
        String id = required(tag, "receptacle_id_key", where);
        if (!RECEPTACLE.matcher(id).matches()) {
            throw new SkipException(where + ": receptacle_id_key " + Quote.value(id) + " is not a receptacle number (1 to 9999)");
        }
        List<String> notes = new ArrayList<>();
        Optional<Double> speed = speed(bus, where, notes);
        Optional<String> domain = uuid(bus, where, "domain UUID", notes);

        List<Peer> peers = new ArrayList<>();
        findPeers(where, bus.get("_items"), false, peers, notes);
        if (peers.size() > 1) {
            throw new SkipException(where + ": " + peers.size() + " peer hosts "
                    + peers.stream().map(p -> p.name().map(Quote::value).orElse("(no name)")).toList()
                    + " on one receptacle; one peer per Thunderbolt bus is expected");
        }
        Optional<Peer> peer = peers.stream().findFirst();
        try {
            Thunderbolt thunderbolt = new Thunderbolt(domain, peer.flatMap(Peer::domainUuid), Integer.parseInt(id), speed,
                    peer.map(Peer::behindHub).orElse(false), peer.flatMap(Peer::name));
            return new ThunderboltBus(thunderbolt, peer.isPresent(), notes);
        } catch (IllegalArgumentException e) {
            throw new SkipException(where + ": " + Names.escape(e.getMessage(), Quote.PATH_CHARS));
        }
    }

    private record Peer(Optional<String> name, Optional<String> domainUuid, boolean behindHub) {
    }

    private static void findPeers(String where, JsonNode items, boolean belowDevice, List<Peer> peers, List<String> notes)
            throws SkipException {
        if (items == null) {
            return;
        }
        if (!items.isArray()) {
            throw new SkipException(where + ": _items is not an array");
        }
        for (JsonNode item : items) {
            if (!item.isObject()) {
                throw new SkipException(where + ": an _items entry is not an object");
            }
            if (item.has("domain_uuid_key") || item.has("services_title")) {
                peers.add(new Peer(peerName(item, where, notes), uuid(item, where, "peer domain UUID", notes), belowDevice));
            } else {
                findPeers(where, item.get("_items"), true, peers, notes);
            }
        }
    }

    /** "80 Gb/s" is a linked speed; "Up to 120 Gb/s" is a receptacle's capacity with nothing linked. */
    private static Optional<Double> speed(JsonNode bus, String where, List<String> notes) {
        JsonNode value = bus.get("receptacle_1_tag").get("current_speed_key");
        if (value == null) {
            return Optional.empty();
        }
        String text = value.asText("");
        if (value.isTextual() && text.startsWith("Up to ")) {
            return Optional.empty();
        }
        Matcher m = SPEED.matcher(text);
        if (!value.isTextual() || !m.matches()) {
            notes.add("link speed unknown: " + where + ": current_speed_key " + shown(value)
                    + " is not a speed such as \"80 Gb/s\"");
            return Optional.empty();
        }
        return Optional.of(Double.parseDouble(m.group(1)));
    }

    private static Optional<String> uuid(JsonNode node, String where, String field, List<String> notes) {
        JsonNode value = node.get("domain_uuid_key");
        if (value == null) {
            return Optional.empty();
        }
        String text = value.asText("");
        if (!value.isTextual() || !UUID.matcher(text).matches()) {
            notes.add(field + " unknown: " + where + ": domain_uuid_key " + shown(value) + " is not a UUID");
            return Optional.empty();
        }
        return Optional.of(text);
    }

    private static Optional<String> peerName(JsonNode peer, String where, List<String> notes) {
        JsonNode value = peer.get("_name");
        if (value == null) {
            return Optional.empty();
        }
        String text = value.asText("");
        if (!value.isTextual() || text.isBlank() || text.length() > MAX_PEER_NAME_CHARS || Names.hasHidden(text)) {
            notes.add("peer name unknown: " + where + ": a peer host's _name " + shown(value) + " is not 1 to "
                    + MAX_PEER_NAME_CHARS + " printable characters");
            return Optional.empty();
        }
        return Optional.of(text);
    }

    /** @return a string value quoted ({@link Quote#value}), else what kind of value it is ({@code a number}) */
    private static String shown(JsonNode value) {
        if (value.isTextual()) {
            return Quote.value(value.asText());
        }
        String type = value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        return (type.startsWith("a") || type.startsWith("o") ? "an " : "a ") + type;
    }

    private static String required(JsonNode node, String field, String where) throws SkipException {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new SkipException(where + ": no " + field);
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new SkipException(where + ": " + field + " is not a non-empty string");
        }
        return value.asText();
    }
}
