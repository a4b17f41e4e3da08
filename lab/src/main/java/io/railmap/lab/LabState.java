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
 * daemon pid, each node's and switch's lldpd (a lab with switches only), and each node's sshd or
 * why the lab runs none. A file without {@code "ssh"} (written before labs ran sshd) reads as a lab
 * without ssh.
 *
 * @param prefix   the namespace prefix
 * @param topology the topology the lab was made from (with the cables as moved since)
 * @param daemon   the command that starts railmapd (before its flags)
 * @param pids     node → pid of its daemon (absent: not running)
 * @param lldpd    node or switch → its lldpd (empty in a lab without switches)
 * @param ssh      the nodes' sshd ({@link LabSsh}), or why there is none
 */
public record LabState(String prefix, LabTopology topology, List<String> daemon, Map<String, Long> pids, Map<String, Lldpd> lldpd,
                       Ssh ssh) {
    private static final String FILE = "state.json";
    /** Why a state file without {@code "ssh"} has no sshd. */
    static final String SSH_UNRECORDED = "the lab's state records no sshd (made by a railmap without ssh in labs)";

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

    /**
     * The lab's ssh: each node's sshd, or why the lab runs none.
     *
     * @param pids node → pid of its sshd (absent: not started, or ssh is off)
     * @param off  why the lab runs no sshd (empty: ssh is on)
     */
    public record Ssh(Map<String, Long> pids, Optional<String> off) {
        /** Copies. */
        public Ssh {
            pids = Map.copyOf(pids);
        }

        /** @return ssh on, no sshd started yet */
        public static Ssh on() {
            return new Ssh(Map.of(), Optional.empty());
        }

        /** @return ssh off, for the reason given */
        public static Ssh off(String why) {
            return new Ssh(Map.of(), Optional.of(why));
        }

        /** @return true when the lab runs an sshd per node */
        public boolean isOn() {
            return off.isEmpty();
        }

        /** @return a copy with a node's sshd pid set */
        public Ssh withPid(String node, long pid) {
            Map<String, Long> next = new LinkedHashMap<>(pids);
            next.put(node, pid);
            return new Ssh(next, off);
        }
    }

    /** Copies. */
    public LabState {
        daemon = List.copyOf(daemon);
        pids = Map.copyOf(pids);
        lldpd = Map.copyOf(lldpd);
    }

    /** A state without lldpd. */
    public LabState(String prefix, LabTopology topology, List<String> daemon, Map<String, Long> pids, Ssh ssh) {
        this(prefix, topology, daemon, pids, Map.of(), ssh);
    }

    /** @return a copy with a node's pid set (or removed when null) */
    public LabState withPid(String node, Long pid) {
        Map<String, Long> next = new LinkedHashMap<>(pids);
        if (pid == null) {
            next.remove(node);
        } else {
            next.put(node, pid);
        }
        return new LabState(prefix, topology, daemon, next, lldpd, ssh);
    }

    /** @return a copy with the lldpd of a node or switch set */
    public LabState withLldpd(String name, Lldpd entry) {
        Map<String, Lldpd> next = new LinkedHashMap<>(lldpd);
        next.put(name, entry);
        return new LabState(prefix, topology, daemon, pids, next, ssh);
    }

    /** @return a copy with another topology (a cable moved) */
    public LabState withTopology(LabTopology next) {
        return new LabState(prefix, next, daemon, pids, lldpd, ssh);
    }

    /** @return a copy with another ssh entry */
    public LabState withSsh(Ssh next) {
        return new LabState(prefix, topology, daemon, pids, lldpd, next);
    }

    /** @return the state in {@code dir}, if a lab wrote one */
    public static Optional<LabState> read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            JsonCursor root = JsonCursor.parse(file.toString(), Files.readString(file))
                    .object(Set.of("prefix", "topology", "daemon", "pids", "lldpd", "ssh"));
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
            Ssh ssh = Ssh.off(SSH_UNRECORDED);
            Optional<JsonCursor> s = root.optionalField("ssh");
            if (s.isPresent()) {
                JsonCursor entry = s.get().object(Set.of("sshd", "off"));
                Map<String, Long> sshd = new LinkedHashMap<>();
                Optional<JsonCursor> started = entry.optionalField("sshd");
                for (String node : topology.nodes()) {
                    started.flatMap(p -> p.optionalField(node)).ifPresent(p -> sshd.put(node, p.integer()));
                }
                ssh = new Ssh(sshd, entry.optionalField("off").map(JsonCursor::string));
            }
            return Optional.of(new LabState(prefix, topology, daemon, pids, lldpd, ssh));
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
        ObjectNode s = root.putObject("ssh");
        if (ssh.isOn()) {
            ObjectNode sshd = s.putObject("sshd");
            ssh.pids().forEach(sshd::put);
        } else {
            s.put("off", ssh.off().orElseThrow());
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
