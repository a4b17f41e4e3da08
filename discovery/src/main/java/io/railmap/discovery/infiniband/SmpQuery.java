package io.railmap.discovery.infiniband;

import io.railmap.matrix.model.Names;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the two answers of infiniband-diags' {@code smpquery} (rdma-core
 * {@code infiniband-diags/smpquery.c}) that name the node at the far end of a local port:
 *
 * <pre>
 * # Node info: DR path slid 65535; dlid 65535; 0,1      smpquery -C mlx5_0 -P 1 -D nodeinfo 0,1
 * BaseVers:........................1
 * NodeType:........................Switch               (or "Channel Adapter", "Router")
 * Guid:............................0xe41d2d03004bef70
 * LocalPort:.......................17                   (the far node's port this cable enters)
 * ...
 * Node Description:..........MF0;leaf-3:MQM8700/U1      smpquery -C mlx5_0 -P 1 -D nodedesc 0,1
 * </pre>
 *
 * Each field line is the name, a colon, dots up to a column, and the value.
 */
public final class SmpQuery {
    private static final Pattern GUID = Pattern.compile("0x[0-9a-fA-F]{1,16}");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,3}");
    /** The most field lines read from one answer (NodeInfo has 12). */
    static final int MAX_LINES = 64;

    private SmpQuery() {
    }

    /**
     * The far end of a local port, as NodeInfo tells it.
     *
     * @param type the node type as printed: {@code Switch}, {@code Channel Adapter}, {@code Router}
     * @param guid the node GUID, lower case, {@code 0x} and 16 hex digits
     * @param port the far node's port number through which the query entered it (NodeInfo LocalPortNum,
     *             printed {@code LocalPort}: 1-254 for a switch's cable port, the HCA port for an HCA)
     */
    public record NodeInfo(String type, String guid, int port) {
        /** @return true when the far end is a switch */
        public boolean isSwitch() {
            return type.equals("Switch");
        }

        /** @return true when the far end is an HCA ({@code Channel Adapter}): a back-to-back cable */
        public boolean isChannelAdapter() {
            return type.equals("Channel Adapter");
        }
    }

    /**
     * @param source what was read, for messages (the command line)
     * @param text   {@code smpquery nodeinfo}'s output
     * @return its node type, GUID and local port
     * @throws IllegalArgumentException naming the source and the field when NodeType, Guid or
     *                                  LocalPort is missing or malformed
     */
    public static NodeInfo nodeInfo(String source, String text) {
        Map<String, String> fields = fields(text);
        String type = field(source, fields, "NodeType");
        String guid = field(source, fields, "Guid");
        if (!GUID.matcher(guid).matches()) {
            throw new IllegalArgumentException(source + ": Guid " + quote(guid) + " is not 0x and up to 16 hex digits");
        }
        String digits = guid.substring(2).toLowerCase(Locale.ROOT);
        String port = field(source, fields, "LocalPort");
        if (!PORT.matcher(port).matches() || Integer.parseInt(port) > 255) {
            throw new IllegalArgumentException(source + ": LocalPort " + quote(port) + " is not a port number 0-255");
        }
        return new NodeInfo(Names.escape(type, 40), "0x" + "0".repeat(16 - digits.length()) + digits, Integer.parseInt(port));
    }

    /**
     * @param source what was read, for messages
     * @param text   {@code smpquery nodedesc}'s output: {@code Node Description:} padded with dots to
     *               column 49, then the description (at most 64 bytes in the SMP); a description of 32
     *               characters or more follows a single dot
     * @return the node description; empty when the node sends none
     * @throws IllegalArgumentException naming the source when there is no {@code Node Description:} line
     */
    public static String nodeDescription(String source, String text) {
        String prefix = "Node Description:";
        for (String line : text.lines().limit(MAX_LINES).toList()) {
            if (line.startsWith(prefix)) {
                String rest = line.substring(prefix.length());
                // smpquery pads with 32 - length dots, or one dot when the description has 32 characters or more
                if (rest.length() > 32 && rest.startsWith(".")) {
                    return rest.substring(1).strip();
                }
                int i = 0;
                while (i < rest.length() && rest.charAt(i) == '.') {
                    i++;
                }
                return rest.substring(i).strip();
            }
        }
        throw new IllegalArgumentException(source + ": no \"Node Description:\" line");
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.lines().limit(MAX_LINES).toList()) {
            int colon = line.indexOf(':');
            if (line.startsWith("#") || colon <= 0) {
                continue;
            }
            int i = colon + 1;
            while (i < line.length() && line.charAt(i) == '.') {
                i++;
            }
            fields.putIfAbsent(line.substring(0, colon).strip(), line.substring(i).strip());
        }
        return fields;
    }

    private static String field(String source, Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(source + ": no " + name + " field");
        }
        return value;
    }

    private static String quote(String value) {
        return "\"" + Names.escape(value, 40) + "\"";
    }
}
