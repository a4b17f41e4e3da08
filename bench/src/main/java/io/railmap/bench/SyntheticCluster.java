package io.railmap.bench;

import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.Thunderbolt;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * Records of a synthetic cluster of Macs, of the size real ones have: node {@code i} is
 * {@code node<i>} with 4 to 8 Thunderbolt ports ({@code 4 + i mod 5}), each with its RDMA device,
 * domain UUIDs, link speed and two addresses, as a Mac's railmapd reports them (about 2 KB of JSON
 * per record). Cables: a ring with two cables per edge (ports 0 and 1 towards the next node, 2 and 3
 * from the previous one), in a scrambled order (node {@code a} to node {@code (a + step) mod n}, step
 * coprime with n) unless {@code inOrder}, plus one chord (port 4) from node {@code a} to node
 * {@code a + n/2} where both have a fifth port; every other port is down with nothing heard. Both
 * ends of a cable hear each other and their Thunderbolt UUIDs point at each other.
 *
 * <p>As a program it writes such a snapshot: {@code SyntheticCluster N FILE [in-order|scrambled]} (scrambled
 * unless told; {@code --help} prints the usage; a bad argument, or a FILE that cannot be written, is one line
 * on standard error and exit code 1, and FILE is then as it was).
 */
public final class SyntheticCluster {
    /** The fewest nodes: a ring of two cables per edge needs three. */
    static final int MIN_SIZE = 3;
    private final int size;
    private final boolean inOrder;
    private final Map<PortRef, PortRef> farEnd = new HashMap<>();

    /**
     * @param size    the number of nodes, at least 3
     * @param inOrder true to cable the ring in node order (rank order by name is then a cycle);
     *                false for a scrambled ring, whose name order is not
     */
    public SyntheticCluster(int size, boolean inOrder) {
        if (size < MIN_SIZE) {
            throw new IllegalArgumentException("a synthetic cluster needs at least 3 nodes, not " + size);
        }
        this.size = size;
        this.inOrder = inOrder;
        int step = inOrder ? 1 : coprimeStep(size);
        for (int i = 0; i < size; i++) {
            int a = (int) ((long) i * step % size);
            int b = (int) ((long) (i + 1) * step % size);
            for (int k = 0; k < 2; k++) {
                cable(new PortRef(node(a), netdev(k)), new PortRef(node(b), netdev(2 + k)));
            }
        }
        for (int a = 0; a < size / 2; a++) {
            int b = a + size / 2;
            if (ports(a) > 4 && ports(b) > 4) {
                cable(new PortRef(node(a), netdev(4)), new PortRef(node(b), netdev(4)));
            }
        }
    }

    /** The command line: {@code N FILE [in-order|scrambled]}. */
    @Command(name = "SyntheticCluster", description = "Writes the snapshot of a synthetic cluster of Macs.",
            footer = {"", "Exit codes: 0 written, 1 a bad argument or a file that cannot be written (named on standard error)."})
    static final class Arguments implements BenchCommandLine.Checked {
        @Parameters(index = "0", paramLabel = "N", description = "Nodes, at least " + MIN_SIZE + ".")
        int size;
        @Parameters(index = "1", paramLabel = "FILE", description = "The snapshot to write (JSON); replaced whole, never half-written.")
        Path file;
        @Parameters(index = "2", arity = "0..1", paramLabel = "in-order|scrambled",
                description = "The ring's cabling: in node order, or scrambled so name order is no ring (default: ${DEFAULT-VALUE}).")
        String order = "scrambled";
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Override
        public void check(CommandLine line) {
            BenchCommandLine.atLeast(line, "N", size, MIN_SIZE, "nodes in the ring");
            if (!order.equals("in-order") && !order.equals("scrambled")) {
                throw new ParameterException(line, "Invalid value for the order: '" + order + "' is not in-order or scrambled");
            }
        }
    }

    /** Writes a snapshot: {@code N FILE [in-order|scrambled]}; {@code --help} prints them. */
    public static void main(String[] args) {
        Arguments arguments = new Arguments();
        OptionalInt exit = BenchCommandLine.parse(arguments, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        BenchCommandLine.writeSnapshot("SyntheticCluster", arguments.file, arguments.size,
                () -> new SyntheticCluster(arguments.size, arguments.order.equals("in-order")).snapshot());
    }

    private void cable(PortRef x, PortRef y) {
        farEnd.put(x, y);
        farEnd.put(y, x);
    }

    /** @return the number of nodes */
    public int size() {
        return size;
    }

    /** @return whether name order is a cycle of the cables */
    public boolean inOrder() {
        return inOrder;
    }

    /** @return node {@code i}'s name */
    public static String node(int i) {
        return "node" + i;
    }

    /** @return the number of ports node {@code i} has */
    public static int ports(int i) {
        return 4 + i % 5;
    }

    private static String netdev(int k) {
        return "en" + (k + 1);
    }

    /**
     * @param i a node
     * @return its ports as discovery reports them on a Mac (link-local addresses with their prefix lengths), with the
     *         far end each heard
     */
    public List<Port> portsOf(int i) {
        List<Port> out = new ArrayList<>();
        for (int k = 0; k < ports(i); k++) {
            PortRef self = new PortRef(node(i), netdev(k));
            PortRef far = farEnd.get(self);
            Thunderbolt tb = new Thunderbolt(Optional.of(domain(self)), Optional.ofNullable(far).map(SyntheticCluster::domain), k + 1,
                    far == null ? Optional.empty() : Optional.of(80.0), false, far == null ? Optional.empty() : Optional.of("Mac Studio"));
            int id = i * 8 + k;
            List<String> addresses = far == null ? List.of()
                    : List.of("169.254." + (id / 250 % 250 + 1) + "." + (id % 250 + 1), String.format(Locale.ROOT, "fe80::1c2a:%x:fe10:%x", i, k));
            // as macOS self-assigns them on every Thunderbolt port: 169.254.0.0/16 and fe80::/64
            Map<String, Integer> prefixLengths = addresses.isEmpty() ? Map.of() : Map.of(addresses.get(0), 16, addresses.get(1), 64);
            out.add(new Port(node(i), netdev(k), Optional.of("rdma_" + netdev(k)), 1, PortKind.THUNDERBOLT, Optional.of(80.0),
                    far == null ? PortState.DOWN : PortState.ACTIVE, Optional.of(tb), addresses, prefixLengths, true, Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), far == null ? List.of() : List.of(far)));
        }
        return out;
    }

    /**
     * @param i       a node
     * @param version the record's version
     * @return its record, with management address {@code 10.a.b.c}
     */
    public NodeRecord record(int i, long version) {
        String management = "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255);
        return new NodeRecord(node(i), version, portsOf(i), Optional.of(management), Optional.of(true));
    }

    /** @return every node's record, version 1 */
    public Snapshot snapshot() {
        List<NodeRecord> records = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            records.add(record(i, 1));
        }
        return new Snapshot(records);
    }

    private static String domain(PortRef port) {
        return UUID.nameUUIDFromBytes(port.toString().getBytes(StandardCharsets.UTF_8)).toString().toUpperCase(Locale.ROOT);
    }

    /** @return the largest step below n/2 that is coprime to n (1 when none): walking by it visits every node once */
    static int coprimeStep(int n) {
        for (int step = n / 2 - 1; step > 1; step--) {
            if (gcd(step, n) == 1) {
                return step;
            }
        }
        return 1;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
