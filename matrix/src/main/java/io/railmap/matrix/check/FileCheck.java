package io.railmap.matrix.check;

import io.railmap.matrix.codec.CheckedFile;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Consumer;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.provenance.RecordId;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks what a user hands to {@code railmap check} or {@code POST /v1/check}: a jaccl devices file
 * or an mlx.launch hostfile ({@link CheckedFile}), against the cables of a snapshot.
 *
 * <ul>
 * <li>A devices file needs the node of each rank given, and is checked in the mode given
 *     ({@link Mode#AUTO} by default), by {@link Checker}.</li>
 * <li>A hostfile is checked as mlx.launch would launch it with jaccl: its mode comes from its backend
 *     and envs unless one is given ({@link LaunchMode}); mlx.launch's own refusals come first
 *     ({@link Hostfile#jacclDevices}); its hosts name the nodes ({@link HostfileRanks}); the rows
 *     mlx.launch writes into the devices file are then checked like a devices file.</li>
 * <li>A hostfile for MLX's TCP ring backend (backend {@code ring}, or {@link Mode#MLX_RING} asked
 *     for) has its hosts' {@code ips} checked against the cables instead ({@link MlxRingCheck}); so
 *     are the addresses of the file {@code MLX_HOSTFILE} names ({@link CheckedFile.RingHosts}), whose
 *     ranks are the nodes given.</li>
 * </ul>
 * Either way, a cell written as a JSON array is a {@code needs-newer-mlx} error for MLX before
 * 0.30.6, which cannot parse one.
 */
public final class FileCheck {
    private FileCheck() {
    }

    /**
     * @param snapshot the records to check against
     * @param source   what the text came from (a file name, {@code "request body"}), for messages
     * @param text     the document
     * @param options  the hosts and mode given, if any
     * @return the ranks, the mode, the findings, and for a hostfile what it said
     * @throws FormatException          when the document is malformed, neither kind, or a hostfile
     *                                  mlx.launch would refuse or not run with jaccl (and no mode is given)
     * @throws UnknownHostsException    when hosts of a hostfile name no node and no hosts are given
     * @throws io.railmap.matrix.rail.UnknownNodesException when given hosts name unknown nodes
     * @throws IllegalArgumentException when a devices file comes without hosts, given hosts do not
     *                                  agree with a hostfile, or a node is named twice
     */
    public static CheckReport check(Snapshot snapshot, String source, String text, CheckOptions options) {
        Topology topology = Topology.of(snapshot);
        CheckReport report = check(topology, snapshot, source, text, options);
        Set<Consumer> asked = report.mode() == Mode.MLX_RING ? Consumer.MLX_RING_ONLY : Consumer.JACCL_ONLY;
        return new CheckReport(report.source(), report.ranks(), report.mode(), report.mlxVersion(),
                ConsumerScope.shown(report.findings(), topology, RailTable.of(topology), asked), report.hostfile());
    }

    /** {@link #check(Snapshot, String, String, CheckOptions)} before its findings are routed through {@link ConsumerScope}. */
    private static CheckReport check(Topology topology, Snapshot snapshot, String source, String text, CheckOptions options) {
        CheckedFile file = CheckedFile.read(source, text);
        if (file instanceof CheckedFile.RingHosts ring) {
            List<String> ranks = options.hosts().orElseThrow(() -> new IllegalArgumentException(options.hostsOption()
                    + " is required with the ring backend's file (MLX_HOSTFILE): give the node of each rank, in rank order (entry i of"
                    + " the file is the i-th node)"));
            if (options.mode().filter(m -> m != Mode.MLX_RING).isPresent()) {
                throw new IllegalArgumentException(source + " is the ring backend's file (MLX_HOSTFILE), checked as "
                        + Mode.MLX_RING.externalName() + " only, not as " + options.mode().get().externalName() + " (" + options.modeOption() + ")");
            }
            if (ranks.size() != ring.addresses().size()) {
                throw new IllegalArgumentException(options.hostsOption() + " names " + ranks.size() + " nodes but " + source + " has "
                        + ring.addresses().size() + " ranks: name the node of each entry, in file order");
            }
            List<Finding> findings = new ArrayList<>(MlxRingCheck.check(topology, ranks, ring.hosts(), (r, k) -> "$[" + r + "][" + k + "]"));
            findings.sort(Checker.ORDER);
            return new CheckReport(source, ranks, Mode.MLX_RING, options.mlxVersion(), findings, Optional.empty());
        }
        if (file instanceof CheckedFile.Devices devices) {
            List<String> ranks = options.hosts().orElseThrow(() -> new IllegalArgumentException(options.hostsOption()
                    + " is required with a jaccl devices file: give the node of each rank, in rank order (row i of the file is the i-th node); "
                    + "an mlx.launch hostfile names its hosts itself"));
            Mode mode = options.mode().orElse(Mode.AUTO);
            if (mode == Mode.MLX_RING) {
                throw new IllegalArgumentException(options.modeOption() + " " + Mode.MLX_RING.externalName() + " checks the ips of an"
                        + " mlx.launch hostfile for MLX's ring backend, and " + source + " is a jaccl devices file: give auto, mesh or ring");
            }
            List<Finding> findings = new ArrayList<>(arrayCells(devices.arrayCells(), options.mlxVersion()));
            findings.addAll(Checker.check(topology, ranks, devices.cells(), mode, options.mlxVersion()));
            return new CheckReport(source, ranks, mode, options.mlxVersion(), findings, Optional.empty());
        }
        Hostfile hostfile = (Hostfile) file;
        readableByLaunch(source, hostfile, options.mlxVersion());
        LaunchMode mode = LaunchMode.of(source, hostfile, options.mode(), options.modeOption(), options.mlxVersion());
        if (mode.mode() == Mode.MLX_RING) {
            List<String> ranks = HostfileRanks.resolve(source, hostfile, topology.nodes(), managementAddress(snapshot), options.hosts(),
                    options.hostsOption());
            List<Finding> findings = new ArrayList<>();
            stale(hostfile, snapshot, ranks).ifPresent(findings::add);
            findings.addAll(MlxRingCheck.check(topology, ranks, hostfile.hosts().stream().map(Hostfile.Host::ips).toList(),
                    (r, k) -> hostfile.path(r) + ".ips[" + k + "]"));
            findings.sort(Checker.ORDER);
            return new CheckReport(source, ranks, mode.mode(), options.mlxVersion(), findings,
                    Optional.of(new CheckReport.FromHostfile(hostfile, mode)));
        }
        List<List<List<String>>> cells = hostfile.jacclDevices(source);
        List<String> ranks = HostfileRanks.resolve(source, hostfile, topology.nodes(), managementAddress(snapshot), options.hosts(),
                options.hostsOption());
        List<Finding> findings = new ArrayList<>(arrayCells(hostfile.arrayCells(), options.mlxVersion()));
        findings.addAll(overridden(hostfile, options.mlxVersion()));
        stale(hostfile, snapshot, ranks).ifPresent(findings::add);
        findings.addAll(Checker.check(topology, ranks, cells, mode.mode(), options.mlxVersion()));
        return new CheckReport(source, ranks, mode.mode(), options.mlxVersion(), findings,
                Optional.of(new CheckReport.FromHostfile(hostfile, mode)));
    }

    /**
     * What mlx.launch of the release refuses in a hostfile's form ({@code python/mlx/_distributed_utils/common.py}):
     * before 0.30.6 {@code parse_hostfile} enumerates the top level as hosts and fails on an object; 0.30.6
     * to 0.32.0 {@code Hostfile.from_file} reads {@code data["backend"]} and {@code data["envs"]} of an
     * object and fails without either.
     *
     * @throws FormatException when mlx.launch would refuse the file, quoting it and saying what to write
     */
    private static void readableByLaunch(String source, Hostfile hostfile, MlxVersion version) {
        if (!hostfile.bare() && !version.launchReadsHostfileObject()) {
            throw new FormatException(source, "$", "MLX " + version + "'s mlx.launch reads a hostfile only as a bare array of"
                    + " hosts and fails on an object (\"Failed to parse hostfile\"): write the hosts array alone and run mlx.launch"
                    + " --backend jaccl (railmap matrix --format launch --mlx-version " + version + " writes that), or give the"
                    + " --mlx-version that will run it");
        }
        if (!hostfile.bare() && version.launchNeedsBackendAndEnvs()) {
            List<String> missing = List.of("backend", "envs").stream().filter(k -> !hostfile.keys().contains(k)).toList();
            if (!missing.isEmpty()) {
                throw new FormatException(source, "$", "the hostfile has no " + String.join(" and no ", missing.stream()
                        .map(k -> "\"" + k + "\"").toList()) + ", and MLX " + version + "'s mlx.launch fails on it (it reads"
                        + " data[\"backend\"] and data[\"envs\"]: \"Failed to parse hostfile\"): add"
                        + (missing.contains("backend") ? " \"backend\": \"jaccl\" (or \"jaccl-ring\")" : "")
                        + (missing.size() == 2 ? " and" : "") + (missing.contains("envs") ? " \"envs\": []" : "")
                        + "; MLX 0.32.1 reads both as optional");
            }
        }
    }

    /**
     * MLX before 0.30.6 reads each cell of its rank's row as null or a string ({@code jaccl.cpp},
     * {@code load_device_names}) and fails on a JSON array, even {@code []} or {@code ["rdma_en2"]},
     * which its rules would otherwise take for null and a name. mlx.launch copies a hostfile's
     * {@code rdma} cells into the devices file as they are ({@code launch.py}, {@code launch_jaccl}).
     *
     * @param arrays the {@code [i, j]} of the cells written as arrays
     * @return one {@code needs-newer-mlx} error naming the first few, or none
     */
    private static List<Finding> arrayCells(List<List<Integer>> arrays, MlxVersion version) {
        if (arrays.isEmpty() || version.readsArrayCells()) {
            return List.of();
        }
        List<String> named = arrays.subList(0, Math.min(4, arrays.size())).stream()
                .map(a -> "[" + a.get(0) + "][" + a.get(1) + "]").toList();
        List<Integer> first = arrays.get(0);
        return List.of(new Finding(Code.NEEDS_NEWER_MLX, Severity.ERROR, first.get(0).equals(first.get(1)) ? List.of(first.get(0)) : first,
                Optional.empty(), arrays.size() + (arrays.size() == 1 ? " cell is" : " cells are") + " written as a JSON array ("
                + String.join(", ", named) + (arrays.size() > 4 ? ", ..." : "") + "), and MLX " + version + "'s jaccl reads a cell"
                + " only as null or a name and fails on an array, even [] or one name: write null for no link and a plain"
                + " \"name\" for one wire, or use MLX " + MlxVersion.RING + " or newer"));
    }

    /**
     * From MLX 0.31.2 jaccl reads {@code JACCL_IBV_DEVICES}, {@code JACCL_RANK} and
     * {@code JACCL_COORDINATOR} before the {@code MLX_*} names mlx.launch sets
     * ({@code lib/jaccl/jaccl.cpp}, {@code Config::from_env}), so such an entry in the hostfile's
     * {@code envs} replaces what mlx.launch hands every rank: the rows checked are not what jaccl reads.
     */
    private static List<Finding> overridden(Hostfile hostfile, MlxVersion version) {
        Map<String, String> wins = Map.of("JACCL_IBV_DEVICES", "MLX_IBV_DEVICES", "JACCL_RANK", "MLX_RANK",
                "JACCL_COORDINATOR", "MLX_JACCL_COORDINATOR");
        if (!version.readsJacclVariables()) {
            return List.of();
        }
        return hostfile.variables().keySet().stream().filter(wins::containsKey)
                .map(key -> new Finding(Code.OVERRIDDEN_BY_ENVS, Severity.ERROR, List.of(), Optional.empty(), "envs sets " + key
                        + ", which jaccl (MLX " + version + ") reads before the " + wins.get(key) + " mlx.launch sets for each rank,"
                        + " so every rank gets the same value and jaccl does not use what this file's hosts and rdma rows say:"
                        + " remove " + key + " from envs"))
                .toList();
    }

    /**
     * A hostfile railmap wrote names the records it came from in {@code envs}
     * ({@link Provenance#TOPOLOGY_VARIABLE}, {@link Provenance#RECORDS_VARIABLE}); when the records held
     * now differ, the file is stale: a warning that names what changed (the checks of the rails say
     * whether it is still right for the cables).
     */
    private static Optional<Finding> stale(Hostfile hostfile, Snapshot snapshot, List<String> ranks) {
        Map<String, String> envs = hostfile.variables();
        String digest = envs.get(Provenance.TOPOLOGY_VARIABLE);
        if (digest == null) {
            return Optional.empty();
        }
        Provenance now = Provenance.of(snapshot, ranks);
        if (now.digest().equals(digest)) {
            return Optional.empty();
        }
        List<String> changed = List.of();
        String records = envs.get(Provenance.RECORDS_VARIABLE);
        if (records != null && !records.isEmpty()) {
            try {
                changed = Provenance.changes(Arrays.stream(records.split(",", -1))
                        .map(r -> RecordId.parse(Provenance.RECORDS_VARIABLE, r)).toList(), snapshot::record);
            } catch (IllegalArgumentException e) {
                changed = List.of("its " + Provenance.RECORDS_VARIABLE + " cannot be read (" + e.getMessage() + ")");
            }
        }
        return Optional.of(new Finding(Code.STALE_CONFIG, Severity.WARNING, List.of(), Optional.empty(), "the file was made from"
                + " other records (" + Names.escape(digest) + ") than the cluster holds now (" + now.digest() + ")"
                + (changed.isEmpty() ? "" : ": " + String.join("; ", changed.subList(0, Math.min(8, changed.size())))
                + (changed.size() > 8 ? "; and " + (changed.size() - 8) + " more" : ""))
                + "; write it again (railmap matrix --format launch)"));
    }

    /** The management address of a node ({@link NodeRecord#management()}), by which a hostfile may name it. */
    static Function<String, Optional<String>> managementAddress(Snapshot snapshot) {
        return node -> snapshot.record(node).flatMap(NodeRecord::management);
    }
}
