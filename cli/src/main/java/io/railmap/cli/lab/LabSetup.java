package io.railmap.cli.lab;

import io.railmap.cli.UserError;
import io.railmap.cli.client.DaemonClient;
import io.railmap.lab.Lab;
import io.railmap.lab.LabNames;
import io.railmap.lab.LabTopology;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.topology.Cable;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the lab lives and how its daemons run.
 *
 * <ul>
 *   <li>State, sockets and logs: {@code RAILMAP_LAB_DIR} (or system property {@code railmap.lab.dir}),
 *       default {@value #DEFAULT_DIR} (cleared at reboot, as the namespaces are).</li>
 *   <li>Namespace prefix: {@code RAILMAP_LAB_PREFIX} (or {@code railmap.lab.prefix}), default
 *       {@value LabNames#DEFAULT_PREFIX}.</li>
 *   <li>Daemons: {@code <railmap home>/bin/railmapd}, the home being the checkout or unpacked release
 *       {@code bin/railmap} runs from (system property {@code railmap.home}), with the flags of
 *       {@link #flags}.</li>
 *   <li>Talking to lab node N's daemon: its Unix socket {@code <dir>/N.sock} ({@code --lab N}).</li>
 * </ul>
 */
public final class LabSetup {
    /** The default state directory. */
    public static final String DEFAULT_DIR = "/run/railmap-lab";
    /** The lab daemons' hello interval in ms: four times the default, so a lab converges fast. */
    public static final int PROBE_INTERVAL_MS = 250;
    /** How often a lab node's daemon asks its lldpd for the switch at the far end of each port, in ms. */
    public static final int SWITCH_POLL_MS = 500;

    private LabSetup() {
    }

    /** @return the lab as the environment places it */
    public static Lab lab() {
        return new Lab(new LabNames(setting("railmap.lab.prefix", "RAILMAP_LAB_PREFIX", LabNames.DEFAULT_PREFIX)), dir(),
                LabSetup::flags);
    }

    /** @return the state directory */
    public static Path dir() {
        return Path.of(setting("railmap.lab.dir", "RAILMAP_LAB_DIR", DEFAULT_DIR));
    }

    private static String setting(String property, String variable, String fallback) {
        return System.getProperty(property, System.getenv().getOrDefault(variable, fallback));
    }

    /** @return the daemon URL of lab node {@code node}: its Unix socket */
    public static String daemonUrl(String node) {
        return "unix:" + dir().resolve(node + ".sock");
    }

    /**
     * @return the command that starts railmapd: this checkout's or release's {@code bin/railmapd}
     * @throws UserError when the checkout cannot be found or is not built
     */
    public static List<String> daemonCommand() {
        String home = System.getProperty("railmap.home", System.getenv("RAILMAP_HOME"));
        if (home == null) {
            throw new UserError("cannot find railmapd: run railmap through bin/railmap (it sets railmap.home)");
        }
        Path railmapd = Path.of(home, "bin", "railmapd").toAbsolutePath().normalize();
        // a release keeps its jars in lib/, a checkout in daemon/target/
        if (!Files.isExecutable(railmapd)
                || !Files.isDirectory(Path.of(home, "lib")) && !Files.exists(Path.of(home, "daemon", "target", "railmap-daemon.jar"))) {
            throw new UserError("railmapd is not built under " + home + ": run ./mvnw -q package there first");
        }
        return List.of(railmapd.toString());
    }

    /**
     * The flags of one lab node's daemon. Its cable ports are veths without an RDMA device;
     * {@code --assume-rdma} names them {@code rdma_<netdev>} as a Mac names its Thunderbolt RDMA
     * devices, so the lab's jaccl outputs name RDMA devices as a real cluster's do.
     */
    public static List<String> flags(Lab.LabContext c) {
        String ports = String.join(",", c.topology().ports(c.node()));
        List<String> flags = new ArrayList<>(List.of(
                "--node", c.node(),
                "--interfaces", ports,
                "--assume-rdma", ports,
                "--api", "127.0.0.1:7246",
                "--api-socket", c.socket().toString(),
                "--cluster", c.names().prefix(),
                "--probe-interval-ms", Integer.toString(PROBE_INTERVAL_MS),
                // the cluster runs on the management bridge, never on the cables
                "--bind", c.mgmtAddress(),
                "--seeds", String.join(",", seeds(c.topology())),
                "--cluster-timing", "lab",
                // a random key per lab: cluster traffic and probes authenticated, as on a real cluster
                "--cluster-key-file", c.key().toString()));
        flags.addAll(lldpdFlags(c));
        return List.copyOf(flags);
    }

    /**
     * @return {@code --lldpd-socket PATH --switch-poll-ms} {@value #SWITCH_POLL_MS} when the node runs
     *         lldpd (a lab with switches), else nothing
     */
    static List<String> lldpdFlags(Lab.LabContext c) {
        return c.lldpdSocket().map(s -> List.of("--lldpd-socket", s.toString(), "--switch-poll-ms", Integer.toString(SWITCH_POLL_MS)))
                .orElse(List.of());
    }

    /** @return "1 switch" or "N switches"; empty for a topology without switches */
    static Optional<String> switches(LabTopology topology) {
        int n = topology.switches().size();
        return n == 0 ? Optional.empty() : Optional.of(n + (n == 1 ? " switch" : " switches"));
    }

    /** @return "ssh on (...)" or "ssh off: why", for lab up and lab status */
    static String ssh(io.railmap.lab.LabState state) {
        return state.ssh().off().map(why -> "ssh off: " + why)
                .orElse("ssh on (sshd on every node's management address; eval \"$(railmap lab env)\", then ssh NODE)");
    }

    /** @return every node's management address: each daemon's seed list */
    static List<String> seeds(LabTopology topology) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < topology.nodes().size(); i++) {
            out.add(io.railmap.lab.LabNames.mgmtAddress(i));
        }
        return out;
    }

    /**
     * What the daemons of a lab hold, asked once.
     *
     * @param waiting  the first thing still missing, for a message; empty when every daemon agrees
     * @param progress counts for a progress line: {@code 4/4 daemons answer, 3/4 hold every record,
     *                 8/8 cables seen by every daemon, 2/4 say the cluster agrees}
     * @param snapshot the first answering daemon's snapshot, or null when none answers
     */
    public record Agreement(String waiting, String progress, Snapshot snapshot) {
        /** @return true when nothing is missing */
        public boolean reached() {
            return waiting.isEmpty();
        }
    }

    /**
     * Asks every running daemon of the lab once for its snapshot ({@code /v1/snapshot}) and its
     * {@code /v1/agreement}, and compares the snapshot with the topology: every plain cable between
     * running nodes, and no other cable, except between ports cabled to switches (the probe cannot
     * tell a switch with two nodes on it from a cable, so such a pair may be seen); its records with
     * the first node's (by digest); and the daemon must say the cluster agrees.
     *
     * @param topology the lab's topology
     * @param nodes    the nodes whose daemons run (others are expected to be absent from snapshots)
     * @return what agrees and what does not
     */
    public static Agreement agreement(LabTopology topology, List<String> nodes) {
        Set<Cable> expected = new HashSet<>();
        for (Cable c : topology.plainCables()) {
            if (nodes.contains(c.a().node()) && nodes.contains(c.b().node())) {
                expected.add(c);
            }
        }
        Set<PortRef> onSwitches = new HashSet<>();
        for (Cable c : topology.cables()) {
            if (topology.isSwitch(c.a().node()) || topology.isSwitch(c.b().node())) {
                onSwitches.add(topology.isSwitch(c.a().node()) ? c.b() : c.a());
            }
        }
        Snapshot first = null;
        String digest = null;
        String waiting = "";
        int answering = 0;
        int holding = 0;
        int agreeing = 0;
        Set<Cable> seenByAll = new HashSet<>(expected);
        for (String node : nodes) {
            Snapshot snapshot;
            boolean agreed;
            try (DaemonClient client = new DaemonClient(daemonUrl(node))) {
                snapshot = SnapshotCodec.readSnapshot(node + " /v1/snapshot", client.get("/v1/snapshot"));
                agreed = JsonCursor.parse(node + " /v1/agreement", client.get("/v1/agreement")).field("agreed").bool();
            } catch (RuntimeException e) {
                waiting = waiting.isEmpty() ? "the daemon of " + node + " does not answer yet" : waiting;
                seenByAll.clear();
                continue;
            }
            answering++;
            if (first == null) {
                first = snapshot;
                digest = Provenance.of(first.records()).digest();
            }
            Set<Cable> seen = new HashSet<>(Topology.of(snapshot).cables());
            seen.removeIf(c -> onSwitches.contains(c.a()) && onSwitches.contains(c.b()));
            seenByAll.retainAll(seen);
            agreeing += agreed ? 1 : 0;
            String problem = "";
            if (!new HashSet<>(snapshot.nodes()).equals(new HashSet<>(nodes))) {
                problem = node + " holds records of " + snapshot.nodes() + ", not of " + nodes;
            } else {
                holding++;
                if (!seen.equals(expected)) {
                    Set<Cable> missing = new HashSet<>(expected);
                    missing.removeAll(seen);
                    Set<Cable> extra = new HashSet<>(seen);
                    extra.removeAll(expected);
                    problem = node + " sees " + seen.size() + " of " + expected.size() + " cables"
                            + (missing.isEmpty() ? "" : "; missing " + missing) + (extra.isEmpty() ? "" : "; unexpected " + extra);
                } else if (!Provenance.of(snapshot.records()).digest().equals(digest)) {
                    // every daemon holds the records the first one holds, and the cluster says so itself
                    problem = node + " holds other records than " + nodes.get(0);
                } else if (!agreed) {
                    problem = "the daemon of " + node + " does not yet know that every member holds the same records";
                }
            }
            waiting = waiting.isEmpty() ? problem : waiting;
        }
        String progress = answering + "/" + nodes.size() + " daemons answer, " + holding + "/" + nodes.size() + " hold every record, "
                + seenByAll.size() + "/" + expected.size() + " cables seen by every daemon, " + agreeing + "/" + nodes.size()
                + " say the cluster agrees";
        return new Agreement(waiting, progress, first);
    }
}
