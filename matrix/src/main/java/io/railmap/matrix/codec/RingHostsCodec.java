package io.railmap.matrix.codec;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.RingEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads the file {@code MLX_HOSTFILE} names for MLX's TCP ring backend, as the backend reads it
 * (ml-explore/mlx {@code mlx/distributed/ring/ring.cpp}, {@code load_nodes}; {@code mlx/distributed/utils.cpp},
 * {@code parse_address}): a JSON array with one entry per rank, in rank order, each an array of
 * {@code "HOST:PORT"} strings, split at the first {@code ':'}. What the backend fails on is an error
 * naming the path: an entry or element of the wrong type, a string without {@code ':'} ("Can't parse
 * address"), a port that is not a number from 1 to 65535. A host part that is no IPv4 literal is read
 * (the backend resolves names) and judged by the check.
 *
 * <p>A running rank's own entry ({@link #entry}) is picked as the backend picks it
 * ({@code ring.cpp} {@code init}: {@code std::atoi(MLX_RANK)}; {@code RingGroup::RingGroup}: entry
 * {@code nodes[rank]}, refused past the file's size).
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

    /**
     * One rank's entry of a ring hostfile, for a running rank's record ({@link RingEntry}). The file is read as
     * {@link #read} reads it (mlx.launch's {@code launch_ring} writes an array of arrays of {@code "ip:port"}
     * strings, {@code json.dumps}, then a newline); the entry is number {@code mlxRank(rank)}. Messages never
     * quote the file (a job may name any file of its user's): they say which rule it broke.
     *
     * @param text the hostfile's text
     * @param rank the rank's {@code MLX_RANK} value
     * @return the file's size and entry {@code rank}'s addresses
     * @throws IllegalArgumentException when the text is not such a file, has no entry or more than
     *                                  {@link JobVariables#MAX_RING_RANKS}, {@code rank} names no entry, or
     *                                  the entry holds more than {@link JobVariables#MAX_RING_ADDRESSES}
     *                                  addresses or one that {@link RingEntry#isAddress} refuses (a host name)
     */
    public static RingEntry entry(String text, String rank) {
        CheckedFile.RingHosts file;
        try {
            file = read(JsonCursor.parse("hostfile", text));
        } catch (FormatException e) {
            throw new IllegalArgumentException("not a ring hostfile (a JSON array of arrays of \"HOST:PORT\" strings)");
        }
        int n = file.addresses().size();
        if (n == 0 || n > JobVariables.MAX_RING_RANKS) {
            throw new IllegalArgumentException("a ring hostfile of " + n + " entries (railmap reads 1 to " + JobVariables.MAX_RING_RANKS + ")");
        }
        OptionalInt r = mlxRank(rank);
        if (r.isEmpty() || r.getAsInt() >= n) {
            throw new IllegalArgumentException("MLX_RANK names no entry of the ring hostfile's " + n + " (the ring backend refuses it)");
        }
        List<String> mine = file.addresses().get(r.getAsInt());
        if (mine.size() > JobVariables.MAX_RING_ADDRESSES) {
            throw new IllegalArgumentException("entry " + r.getAsInt() + " of the ring hostfile holds " + mine.size() + " addresses, over "
                    + JobVariables.MAX_RING_ADDRESSES);
        }
        for (int k = 0; k < mine.size(); k++) {
            if (!RingEntry.isAddress(mine.get(k))) {
                throw new IllegalArgumentException("address " + k + " of entry " + r.getAsInt() + " of the ring hostfile is not an IPv4"
                        + " address a.b.c.d, ':' and a port from 1 to 65535 (a host name is not published)");
            }
        }
        return new RingEntry(n, mine);
    }

    /**
     * The rank the ring backend takes from {@code MLX_RANK}: C's {@code atoi} ({@code ring.cpp} {@code init}),
     * which skips leading white space, takes an optional sign and the digits after it, and stops at anything
     * else, so {@code "1x"} is 1 and a value without digits is 0.
     *
     * @param text the value of {@code MLX_RANK}
     * @return the rank; empty when it is negative (the backend indexes past its entries) or has more than
     *         nine digits (past what {@code atoi} holds reliably)
     */
    public static OptionalInt mlxRank(String text) {
        int i = 0;
        while (i < text.length() && " \t\n\u000b\f\r".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        boolean negative = false;
        if (i < text.length() && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        int start = i;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        String digits = text.substring(start, i).replaceFirst("^0+(?=.)", "");
        if (digits.length() > 9) {
            return OptionalInt.empty();
        }
        int value = digits.isEmpty() ? 0 : Integer.parseInt(digits);
        return negative && value > 0 ? OptionalInt.empty() : OptionalInt.of(value);
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
