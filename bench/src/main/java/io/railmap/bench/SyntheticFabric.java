package io.railmap.bench;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.model.SwitchPort;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Records of a synthetic rail-optimised fabric: node {@code i} is {@code gpu-<i>} (4 digits) with a
 * 25 Gb/s management port {@code eno1} and {@code nics} 400 Gb/s RoCE NICs {@code mlx5_k} on
 * {@code ens<k>np0}, NIC k reaching leaf k ({@code leaf-rail<k>}, port {@code Ethernet1/<i+1>}, as
 * lldpd reports it), GID index 3, address {@code 10.<leaf>.<i/250>.<i%250+1>}; node 7's NICs 2 and 3
 * are swapped between their leaves (a cross-rail pair). For the figures of README "Benchmarks".
 *
 * <p>As a program: {@code SyntheticFabric N NICS FILE}.
 */
public final class SyntheticFabric {
    private SyntheticFabric() {
    }

    /**
     * @param size the number of nodes, at least 8
     * @param nics NICs per node, 4 to 32
     * @return the snapshot
     */
    public static Snapshot of(int size, int nics) {
        if (size < 8 || nics < 4 || nics > 32) {
            throw new IllegalArgumentException("a synthetic fabric needs at least 8 nodes and 4 to 32 NICs, not " + size + " and " + nics);
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

    /** Writes a snapshot: {@code N NICS FILE}. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SyntheticFabric N NICS FILE");
            System.exit(1);
        }
        Files.writeString(Path.of(args[2]), SnapshotCodec.write(of(Integer.parseInt(args[0]), Integer.parseInt(args[1]))),
                StandardCharsets.UTF_8);
    }
}
