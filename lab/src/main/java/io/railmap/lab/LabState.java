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
 * after a crash) know it: the prefix, the topology, the daemon command and flags, and each node's
 * daemon pid and management address.
 *
 * @param prefix  the namespace prefix
 * @param topology the topology the lab was made from
 * @param daemon  the command that starts railmapd (before its flags)
 * @param pids    node → pid of its daemon (absent: not running)
 */
public record LabState(String prefix, LabTopology topology, List<String> daemon, Map<String, Long> pids) {
    private static final String FILE = "state.json";

    /** Copies. */
    public LabState {
        daemon = List.copyOf(daemon);
        pids = Map.copyOf(pids);
    }

    /** @return a copy with a node's pid set (or removed when null) */
    public LabState withPid(String node, Long pid) {
        Map<String, Long> next = new LinkedHashMap<>(pids);
        if (pid == null) {
            next.remove(node);
        } else {
            next.put(node, pid);
        }
        return new LabState(prefix, topology, daemon, next);
    }

    /** @return the state in {@code dir}, if a lab wrote one */
    public static Optional<LabState> read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            JsonCursor root = JsonCursor.parse(file.toString(), Files.readString(file))
                    .object(Set.of("prefix", "topology", "daemon", "pids"));
            String prefix = root.field("prefix").string();
            LabTopology topology = LabTopology.read(file + " topology", root.field("topology").json());
            List<String> daemon = new ArrayList<>();
            root.field("daemon").elements().forEach(e -> daemon.add(e.string()));
            Map<String, Long> pids = new LinkedHashMap<>();
            for (String node : topology.nodes()) {
                root.field("pids").optionalField(node).ifPresent(p -> pids.put(node, p.integer()));
            }
            return Optional.of(new LabState(prefix, topology, daemon, pids));
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
        ArrayNode cables = t.putArray("cables");
        for (Cable c : topology.cables()) {
            cables.addArray().add(c.a().toString()).add(c.b().toString());
        }
        return t;
    }
}
