package io.railmap.lab;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A virtual cluster: makes it from a {@link LabTopology}, changes it (cables, daemons) and removes it.
 *
 * <p>Layout: namespace {@code <prefix>-mgmt} holds bridge {@value LabNames#BRIDGE}; each node
 * namespace {@code <prefix>-n-<node>} has {@value LabNames#MGMT_IF} (address
 * {@code 10.231.0.(i+1)/24}) bridged there, and one veth end per cable with the topology's interface
 * name and a link-local IPv4 address of its own ({@link LabNames#cableAddress}, as macOS gives a
 * Thunderbolt port; jaccl needs one on every rail end). One railmapd runs in every node namespace, started as
 * {@code ip netns exec <ns> setsid <daemon command> <flags>}, its output appended to
 * {@code <dir>/<node>.log}, its API on {@code <dir>/<node>.sock} (a Unix socket, reachable from every
 * namespace). The state goes to {@code <dir>/state.json}.
 */
public final class Lab {
    private final LabNames names;
    private final Path dir;
    private final Function<LabContext, List<String>> flags;

    /**
     * What the daemon flags of one node may depend on.
     *
     * @param node     the node
     * @param index    its place in the topology's node list (0-based)
     * @param topology the whole topology
     * @param socket   where its API socket goes
     * @param names    the lab's names
     * @param key      the lab's cluster key file (made by {@link #up}, mode 0600): its daemons
     *                 authenticate their cluster traffic and probes as a real cluster should
     */
    public record LabContext(String node, int index, LabTopology topology, Path socket, LabNames names, Path key) {
        /** @return this node's management address */
        public String mgmtAddress() {
            return LabNames.mgmtAddress(index);
        }
    }

    /**
     * @param names the lab's names (prefix)
     * @param dir   where state, sockets and logs go
     * @param flags the railmapd flags for one node (node name, interfaces, API socket, cluster, ...)
     */
    public Lab(LabNames names, Path dir, Function<LabContext, List<String>> flags) {
        this.names = names;
        this.dir = dir;
        this.flags = flags;
    }

    /** @return the lab's names */
    public LabNames names() {
        return names;
    }

    /** @return the state directory */
    public Path dir() {
        return dir;
    }

    /** @return the API socket of a node's daemon */
    public Path socket(String node) {
        return dir.resolve(node + ".sock");
    }

    /** @return the log of a node's daemon */
    public Path log(String node) {
        return dir.resolve(node + ".log");
    }

    /** @return the state of the lab that is up, if any */
    public Optional<LabState> state() {
        return LabState.read(dir);
    }

    /** @return namespaces on this machine that carry this lab's prefix */
    public List<String> leftovers() {
        return Netns.list().stream().filter(names::owns).toList();
    }

    /**
     * Makes the lab and starts a daemon in every node. On any failure, removes what it made.
     *
     * @param topology the nodes and cables
     * @param daemon   the command that starts railmapd, before its flags
     * @return the state written
     * @throws LabException when namespaces cannot be made here, a lab with this prefix is up already,
     *                      or a command fails
     */
    public LabState up(LabTopology topology, List<String> daemon) {
        Netns.unavailable().ifPresent(why -> {
            throw new LabException(why);
        });
        if (state().isPresent() || !leftovers().isEmpty()) {
            throw new LabException("a lab is up already (" + String.join(", ", leftovers().isEmpty()
                    ? List.of(dir.resolve("state.json").toString()) : leftovers()) + "): run railmap lab down first");
        }
        try {
            Files.createDirectories(dir);
            writeKey();
            String mgmt = names.mgmtNamespace();
            Netns.add(mgmt);
            Netns.bridge(mgmt, LabNames.BRIDGE);
            for (int i = 0; i < topology.nodes().size(); i++) {
                String ns = names.nodeNamespace(topology.nodes().get(i));
                Netns.add(ns);
                Netns.veth(ns, LabNames.MGMT_IF, mgmt, LabNames.bridgePort(i));
                Netns.enslave(mgmt, LabNames.bridgePort(i), LabNames.BRIDGE);
                Netns.address(ns, LabNames.MGMT_IF, LabNames.mgmtAddress(i) + "/24");
            }
            List<Cable> cables = topology.cables();
            for (int i = 0; i < cables.size(); i++) {
                Cable c = cables.get(i);
                String a = names.nodeNamespace(c.a().node());
                String b = names.nodeNamespace(c.b().node());
                Netns.veth(a, c.a().port(), b, c.b().port());
                Netns.address(a, c.a().port(), LabNames.cableAddress(i, 0) + "/" + LabNames.CABLE_PREFIX_LENGTH);
                Netns.address(b, c.b().port(), LabNames.cableAddress(i, 1) + "/" + LabNames.CABLE_PREFIX_LENGTH);
            }
            LabState state = new LabState(names.prefix(), topology, daemon, Map.of());
            state.write(dir);
            for (String node : topology.nodes()) {
                state = state.withPid(node, launch(state, node));
                state.write(dir);
            }
            return state;
        } catch (IOException | RuntimeException e) {
            down();
            throw e instanceof LabException le ? le : new LabException("cannot make the lab: " + e.getMessage());
        }
    }

    /** @return the lab's cluster key file */
    public Path key() {
        return dir.resolve("cluster.key");
    }

    /** Writes 32 random bytes, base64, to a new file readable by its owner only. */
    private void writeKey() throws IOException {
        byte[] secret = new byte[32];
        new java.security.SecureRandom().nextBytes(secret);
        Files.deleteIfExists(key());
        Files.createFile(key(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(key(), java.util.Base64.getEncoder().encodeToString(secret) + "\n");
    }

    /**
     * Removes everything with this lab's prefix: ends the processes inside its namespaces, deletes the
     * namespaces (which deletes their links), and removes the state directory. Safe to run twice, or
     * after a crash.
     *
     * @return the namespaces removed
     */
    public List<String> down() {
        List<String> removed = new ArrayList<>(leftovers());
        for (String ns : removed) {
            Netns.delete(ns);
        }
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new LabException("cannot remove " + dir + ": " + e.getMessage());
            }
        }
        return removed;
    }

    /**
     * Pulls or plugs a cable at one end (the far end loses or regains carrier).
     *
     * @throws LabException when no lab is up or the port ends no cable of the topology
     */
    public void cable(PortRef end, boolean up) {
        LabState state = require();
        if (state.topology().cableAt(end).isEmpty()) {
            throw new LabException(end + " ends no cable of the lab (cables: " + state.topology().cables() + ")");
        }
        Netns.link(names.nodeNamespace(end.node()), end.port(), up);
    }

    /**
     * Kills a node's daemon with SIGKILL (no goodbye, no leave: as a crash), if it runs.
     *
     * @return true when a daemon was running and is now gone
     * @throws LabException when no lab is up or the node is not in it
     */
    public boolean kill(String node) {
        LabState state = requireNode(node);
        Long pid = state.pids().get(node);
        boolean killed = false;
        if (pid != null && Netns.holds(names.nodeNamespace(node), pid)) {
            Optional<ProcessHandle> p = ProcessHandle.of(pid);
            if (p.isPresent()) {
                p.get().destroyForcibly();
                try {
                    p.get().onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new LabException("daemon of " + node + " (pid " + pid + ") did not die within 10 s");
                }
                killed = true;
            }
        }
        state.withPid(node, null).write(dir);
        return killed;
    }

    /**
     * Starts a node's daemon again.
     *
     * @return the new pid
     * @throws LabException when no lab is up, the node is not in it, or its daemon runs already
     */
    public long start(String node) {
        LabState state = requireNode(node);
        if (running(state, node)) {
            throw new LabException("the daemon of " + node + " runs already (pid " + state.pids().get(node) + ")");
        }
        long pid = launch(state, node);
        state.withPid(node, pid).write(dir);
        return pid;
    }

    /** @return true when the node's daemon (by the state's pid) is alive inside its namespace */
    public boolean running(LabState state, String node) {
        Long pid = state.pids().get(node);
        return pid != null && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && Netns.holds(names.nodeNamespace(node), pid);
    }

    /** @return node → whether each of its cable ports has carrier */
    public Map<String, Map<String, Boolean>> carriers(LabState state) {
        Map<String, Map<String, Boolean>> out = new LinkedHashMap<>();
        for (String node : state.topology().nodes()) {
            Map<String, Boolean> ports = new LinkedHashMap<>();
            for (String port : state.topology().ports(node)) {
                ports.put(port, Netns.hasCarrier(names.nodeNamespace(node), port));
            }
            out.put(node, ports);
        }
        return out;
    }

    private LabState require() {
        return state().orElseThrow(() -> new LabException("no lab is up (no " + dir.resolve("state.json")
                + "): start one with railmap lab up --topology FILE"));
    }

    private LabState requireNode(String node) {
        LabState state = require();
        if (!state.topology().nodes().contains(node)) {
            throw new LabException("node " + Names.escape(node) + " is not in the lab (nodes: " + String.join(", ", state.topology().nodes()) + ")");
        }
        return state;
    }

    private long launch(LabState state, String node) {
        int index = state.topology().nodes().indexOf(node);
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", names.nodeNamespace(node)));
        if (new File("/usr/bin/setsid").canExecute() || new File("/bin/setsid").canExecute()) {
            command.add("setsid");
        }
        command.addAll(state.daemon());
        command.addAll(flags.apply(new LabContext(node, index, state.topology(), socket(node), names, key())));
        try {
            Process p = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log(node).toFile()))
                    .redirectErrorStream(true)
                    .start();
            return p.pid();
        } catch (IOException e) {
            throw new LabException("cannot start the daemon of " + node + ": " + e.getMessage());
        }
    }
}
