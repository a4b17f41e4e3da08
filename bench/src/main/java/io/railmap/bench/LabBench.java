package io.railmap.bench;

import io.railmap.cli.client.DaemonClient;
import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.Lab;
import io.railmap.lab.LabState;
import io.railmap.lab.LabTopology;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Figures for the lab (needs root on Linux and a built checkout; run from the checkout's top):
 * <ul>
 *   <li>convergence: from starting N daemons until every one holds every record and sees every cable,
 *       for rings of N = 2, 4, 8 nodes with two cables per ring edge (JVM start included);</li>
 *   <li>unplug to matrix: from {@code lab cable down} until no daemon's topology holds the cable;</li>
 *   <li>footprint: RSS and threads of each idle daemon after a quiet period.</li>
 * </ul>
 * Prints one line per figure. Arguments: node counts (default 2 4 8).
 */
public final class LabBench {
    private static final long POLL_MS = 20;

    private LabBench() {
    }

    /** @param args node counts, e.g. {@code 2 4 8} */
    public static void main(String[] args) throws Exception {
        System.setProperty("railmap.home", System.getProperty("railmap.home", Path.of("").toAbsolutePath().toString()));
        System.setProperty("railmap.lab.prefix", "rmbench");
        System.setProperty("railmap.lab.dir", Files.createTempDirectory("railmap-lab-bench").toString());
        List<Integer> sizes = new ArrayList<>();
        for (String a : args.length == 0 ? new String[] {"2", "4", "8"} : args) {
            sizes.add(Integer.parseInt(a));
        }
        Lab lab = LabSetup.lab();
        lab.down();
        try {
            for (int n : sizes) {
                measure(lab, n);
            }
        } finally {
            lab.down();
        }
    }

    private static void measure(Lab lab, int n) throws Exception {
        LabTopology topology = ring(n);
        long start = System.nanoTime();
        LabState state = lab.up(topology, LabSetup.daemonCommand());
        while (!LabSetup.agreement(topology, topology.nodes()).reached()) {
            Thread.sleep(POLL_MS);
            if (System.nanoTime() - start > 120_000_000_000L) {
                throw new IllegalStateException("no agreement within 120 s for " + n + " nodes");
            }
        }
        System.out.printf("convergence   %d nodes, %2d cables: %6.2f s from starting the daemons to every record and cable everywhere%n",
                n, topology.cables().size(), (System.nanoTime() - start) / 1e9);

        Cable cable = topology.cables().get(0);
        long pulled = System.nanoTime();
        lab.cable(cable.a(), false);
        while (anyDaemonHolds(topology, cable)) {
            Thread.sleep(POLL_MS);
        }
        System.out.printf("unplug        %d nodes: %6.3f s from pulling %s until no daemon's topology holds it%n",
                n, (System.nanoTime() - pulled) / 1e9, cable);
        lab.cable(cable.a(), true);

        Thread.sleep(15_000);
        for (String node : topology.nodes()) {
            long pid = state.pids().get(node);
            String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
            System.out.printf("footprint     %d nodes, daemon %s: RSS %s, %s threads (idle 15 s)%n", n, node,
                    field(status, "VmRSS:"), field(status, "Threads:"));
        }
        lab.down();
    }

    private static boolean anyDaemonHolds(LabTopology topology, Cable cable) {
        for (String node : topology.nodes()) {
            try (DaemonClient client = new DaemonClient(LabSetup.daemonUrl(node))) {
                if (Topology.of(SnapshotCodec.readSnapshot(node, client.get("/v1/snapshot"))).cables().contains(cable)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length()).trim();
            }
        }
        return "?";
    }

    /** n nodes in a ring, two cables per ring edge ({@code nK:pX}); two nodes get two crossed cables. */
    static LabTopology ring(int n) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add("n" + i);
        }
        List<Cable> cables = new ArrayList<>();
        if (n == 2) {
            cables.add(new Cable(PortRef.parse("n0:p0"), PortRef.parse("n1:p1")));
            cables.add(new Cable(PortRef.parse("n0:p1"), PortRef.parse("n1:p0")));
        } else {
            for (int i = 0; i < n; i++) {
                int j = (i + 1) % n;
                for (int k = 0; k < 2; k++) {
                    cables.add(new Cable(new PortRef("n" + i, "r" + k), new PortRef("n" + j, "l" + k)));
                }
            }
        }
        return new LabTopology("bench ring of " + n, nodes, cables);
    }
}
