package io.railmap.matrix.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the file {@code MLX_HOSTFILE} names for MLX's TCP ring backend, as the backend reads it
 * (ml-explore/mlx {@code mlx/distributed/ring/ring.cpp}, {@code load_nodes}; {@code mlx/distributed/utils.cpp},
 * {@code parse_address}): a JSON array with one entry per rank, in rank order, each an array of
 * {@code "HOST:PORT"} strings, split at the first {@code ':'}. What the backend fails on is an error
 * naming the path: an entry or element of the wrong type, a string without {@code ':'} ("Can't parse
 * address"), a port that is not a number from 1 to 65535. A host part that is no IPv4 literal is read
 * (the backend resolves names) and judged by the check.
 */
public final class RingHostsCodec {
    private RingHostsCodec() {
    }

    /**
     * @param root the document, an array whose first entry is an array of strings
     * @return per rank, its {@code "HOST:PORT"} strings in order
     * @throws FormatException when the document is not of that shape or an address cannot be parsed
     */
    static CheckedFile.RingHosts read(JsonCursor root) {
        List<List<String>> ranks = new ArrayList<>();
        for (JsonCursor entry : root.elements()) {
            List<String> addresses = new ArrayList<>();
            for (JsonCursor element : entry.elements()) {
                String address = element.string();
                int colon = address.indexOf(':');
                String port = colon < 0 ? "" : address.substring(colon + 1);
                if (colon < 0 || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                    throw element.fail("expected \"HOST:PORT\" with a port from 1 to 65535, as the ring backend reads each address"
                            + " (\"Can't parse address\" otherwise)");
                }
                addresses.add(address);
            }
            ranks.add(addresses);
        }
        return new CheckedFile.RingHosts(ranks);
    }

    /** @return true when the first entry's first element is a string holding {@code ':'}, which no jaccl device name does */
    static boolean looksLikeOne(List<JsonCursor> entries) {
        if (entries.isEmpty() || !entries.get(0).isArray()) {
            return false;
        }
        List<JsonCursor> first = entries.get(0).elements();
        return !first.isEmpty() && first.get(0).isString() && first.get(0).string().indexOf(':') >= 0;
    }
}
