package io.railmap.bench;

import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Records of a synthetic rail-optimised fabric: node {@code i} is {@code gpu-<i>} (4 digits) with a
 * 25 Gb/s management port {@code eno1} and {@code nics} 400 Gb/s RoCE NICs {@code mlx5_k} on
 * {@code ens<k>np0}, NIC k reaching leaf k ({@code leaf-rail<k>}, port {@code Ethernet1/<i+1>}, as
 * lldpd reports it), GID index 3, address {@code 10.<leaf>.<i/250>.<i%250+1>}; node 7's NICs 2 and 3
 * are swapped between their leaves (a cross-rail pair). For the figures of docs/benchmarks.md.
 *
 * <p>As a program: {@code SyntheticFabric N NICS FILE} ({@code --help} prints the usage; a bad argument, or a
 * FILE that cannot be written, is one line on standard error and exit code 1, and FILE is then as it was).
 */
public final class SyntheticFabric {
    /** The fewest nodes: node 7 holds the cross-rail pair. */
    static final int MIN_SIZE = 8;
    /** The most nodes: each has an address {@code 10.<leaf>.<i / 250>.<i % 250 + 1>}. */
    static final int MAX_SIZE = 256 * 250;
    /** The fewest NICs per node: NICs 2 and 3 are the cross-rail pair. */
    static final int MIN_NICS = 4;
    /** The most NICs per node. */
    static final int MAX_NICS = 32;
    private SyntheticFabric() {
    }

    /**
     * @param size the number of nodes, {@value #MIN_SIZE} to {@value #MAX_SIZE}
     * @param nics NICs per node, {@value #MIN_NICS} to {@value #MAX_NICS}
     * @return the snapshot
     * @throws IllegalArgumentException when either is out of range
     */
    public static Snapshot of(int size, int nics) {
        if (size < MIN_SIZE || size > MAX_SIZE || nics < MIN_NICS || nics > MAX_NICS) {
            throw new IllegalArgumentException("a synthetic fabric needs " + MIN_SIZE + " to " + MAX_SIZE + " nodes and " + MIN_NICS + " to " + MAX_NICS + " NICs, not " + size + " and " + nics);
        }
        List<NodeRecord> records = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String node = String.format("gpu-%04d", i);
            String host = (i / 250) + "." + (i % 250 + 1);
            List<Port> ports = new ArrayList<>(List.of(new Port(node, "eno1", Optional.empty(), 1, PortKind.ETHERNET, Optional.of(25.0),
                    PortState.ACTIVE, Optional.empty(), List.of("10.200." + host), true, Optional.empty(), Optional.empty(),
                    Optional.empty(), List.of())));
            for (int k = 0; k < nics; k++) {
                int leaf = i == 7 && (k == 2 || k == 3) ? 5 - k : k;
                SwitchPort far = new SwitchPort(FarEndSource.LLDP, String.format("b8:59:9f:00:10:%02x", leaf), Optional.of("leaf-rail" + leaf),
                        "Ethernet1/" + (i + 1));
                ports.add(new Port(node, "ens" + k + "np0", Optional.of("mlx5_" + k), 1, PortKind.ROCE, Optional.of(400.0), PortState.ACTIVE,
                        Optional.empty(), List.of("10." + leaf + "." + host), true, Optional.empty(), Optional.of(far), Optional.of(3),
                        List.of()));
            }
            records.add(new NodeRecord(node, 1, ports, Optional.of("10.200." + host), Optional.empty()));
        }
        return new Snapshot(records);
    }

    /** The command line: {@code N NICS FILE}. */
    @Command(name = "SyntheticFabric", description = "Writes the snapshot of a synthetic rail-optimised fabric.",
            footer = {"", "Exit codes: 0 written, 1 a bad argument or a file that cannot be written (named on standard error)."})
    static final class Arguments implements BenchCommandLine.Checked {
        @Parameters(index = "0", paramLabel = "N", description = "Nodes, " + MIN_SIZE + " to " + MAX_SIZE + ".")
        int size;
        @Parameters(index = "1", paramLabel = "NICS", description = "RoCE NICs per node, one per rail, " + MIN_NICS + " to " + MAX_NICS + ".")
        int nics;
        @Parameters(index = "2", paramLabel = "FILE", description = "The snapshot to write (JSON); replaced whole, never half-written.")
        Path file;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Override
        public void check(CommandLine line) {
            BenchCommandLine.within(line, "N", size, MIN_SIZE, MAX_SIZE, "nodes; each has an address 10.<leaf>.<i / 250>.<i % 250 + 1>");
            BenchCommandLine.within(line, "NICS", nics, MIN_NICS, MAX_NICS, "NICs per node");
        }
    }

    /** Writes a snapshot: {@code N NICS FILE}; {@code --help} prints them. */
    public static void main(String[] args) {
        Arguments arguments = new Arguments();
        OptionalInt exit = BenchCommandLine.parse(arguments, args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        BenchCommandLine.writeSnapshot("SyntheticFabric", arguments.file, arguments.size, () -> of(arguments.size, arguments.nics));
    }
}
