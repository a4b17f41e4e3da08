package io.railmap.lab;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonCursor;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.topology.Cable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a lab made, kept in {@code <dir>/state.json} so that later commands (and {@code lab down}
 * after a crash) know it: the prefix, the topology, the daemon command and flags, each node's
 * daemon pid, and each node's and switch's lldpd (a lab with switches only).
 *
 * @param prefix   the namespace prefix
 * @param topology the topology the lab was made from (with the cables as moved since)
 * @param daemon   the command that starts railmapd (before its flags)
 * @param pids     node → pid of its daemon (absent: not running)
 * @param lldpd    node or switch → its lldpd (empty in a lab without switches)
 */
public record LabState(String prefix, LabTopology topology, List<String> daemon, Map<String, Long> pids, Map<String, Lldpd> lldpd) {
    private static final String FILE = "state.json";

    /**
     * One lldpd of the lab.
     *
     * @param socket its control socket ({@code lldpcli -u}); a node's daemon reads LLDP through it
     * @param pid    its pid (empty: stopped)
     */
    public record Lldpd(Path socket, Optional<Long> pid) {
        /** @return a copy with the pid set, or cleared when empty */
        public Lldpd withPid(Optional<Long> next) {
            return new Lldpd(socket, next);
        }
    }

    /** Copies. */
    public LabState {
        daemon = List.copyOf(daemon);
        pids = Map.copyOf(pids);
        lldpd = Map.copyOf(lldpd);
    }

    /** A state without lldpd. */
    public LabState(String prefix, LabTopology topology, List<String> daemon, Map<String, Long> pids) {
        this(prefix, topology, daemon, pids, Map.of());
    }

    /** @return a copy with a node's pid set (or removed when null) */
    public LabState withPid(String node, Long pid) {
        Map<String, Long> next = new LinkedHashMap<>(pids);
        if (pid == null) {
            next.remove(node);
        } else {
            next.put(node, pid);
        }
        return new LabState(prefix, topology, daemon, next, lldpd);
    }

    /** @return a copy with the lldpd of a node or switch set */
    public LabState withLldpd(String name, Lldpd entry) {
        Map<String, Lldpd> next = new LinkedHashMap<>(lldpd);
        next.put(name, entry);
        return new LabState(prefix, topology, daemon, pids, next);
    }

    /** @return a copy with another topology (a cable moved) */
    public LabState withTopology(LabTopology next) {
        return new LabState(prefix, next, daemon, pids, lldpd);
    }

    /** @return the state in {@code dir}, if a lab wrote one */
    public static Optional<LabState> read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            JsonCursor root = JsonCursor.parse(file.toString(), Files.readString(file))
                    .object(Set.of("prefix", "topology", "daemon", "pids", "lldpd"));
            String prefix = root.field("prefix").string();
            LabTopology topology = LabTopology.read(file + " topology", root.field("topology").json());
            List<String> daemon = new ArrayList<>();
            root.field("daemon").elements().forEach(e -> daemon.add(e.string()));
            Map<String, Long> pids = new LinkedHashMap<>();
            for (String node : topology.nodes()) {
                root.field("pids").optionalField(node).ifPresent(p -> pids.put(node, p.integer()));
            }
            Map<String, Lldpd> lldpd = new LinkedHashMap<>();
            Optional<JsonCursor> l = root.optionalField("lldpd");
            if (l.isPresent()) {
                for (String name : topology.names()) {
                    l.get().optionalField(name).ifPresent(e -> {
                        JsonCursor entry = e.object(Set.of("socket", "pid"));
                        lldpd.put(name, new Lldpd(Path.of(entry.field("socket").string()),
                                entry.optionalField("pid").map(JsonCursor::integer)));
                    });
                }
            }
            return Optional.of(new LabState(prefix, topology, daemon, pids, lldpd));
        } catch (IOException e) {
            throw new LabException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** Writes the state atomically (a temporary file, then a rename). */
    public void write(Path dir) {
        ObjectNode root = JsonText.object();
        root.put("prefix", prefix);
        root.set("topology", topologyTree(topology));
        ArrayNode d = root.putArray("daemon");
        daemon.forEach(d::add);
        ObjectNode p = root.putObject("pids");
        pids.forEach(p::put);
        if (!lldpd.isEmpty()) {
            ObjectNode l = root.putObject("lldpd");
            lldpd.forEach((name, entry) -> {
                ObjectNode e = l.putObject(name);
                e.put("socket", entry.socket().toString());
                entry.pid().ifPresent(pid -> e.put("pid", pid));
            });
        }
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".state", ".tmp");
            Files.writeString(tmp, JsonText.pretty(root));
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new LabException("cannot write the lab state in " + dir + ": " + e.getMessage());
        }
    }

    /** @return a topology as its file format */
    public static ObjectNode topologyTree(LabTopology topology) {
        ObjectNode t = JsonText.object();
        t.put("description", topology.description());
        ArrayNode nodes = t.putArray("nodes");
        topology.nodes().forEach(nodes::add);
        if (!topology.switches().isEmpty()) {
            ArrayNode switches = t.putArray("switches");
            topology.switches().forEach(switches::add);
        }
        ArrayNode cables = t.putArray("cables");
        for (Cable c : topology.cables()) {
            cables.addArray().add(c.a().toString()).add(c.b().toString());
        }
        return t;
    }
}
