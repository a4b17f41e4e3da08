package io.railmap.lab;

import io.railmap.matrix.address.AddressPlan;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
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
 * name and a link-local IPv4 address ({@link LabTopology#addresses}: a /30 of its own per cable, a /24
 * per switch, so that a TCP connection travels the cable whose far end it names; jaccl needs an IPv4
 * address on every rail end). One railmapd runs in every node namespace, started as
 * {@code ip netns exec <ns> setsid <daemon command> <flags>}, its output appended to
 * {@code <dir>/<node>.log}, its API on {@code <dir>/<node>.sock} (a Unix socket, reachable from every
 * namespace). The management namespace has an address of its own on the bridge,
 * {@value LabNames#MGMT_HOST_ADDRESS}/24. The state goes to {@code <dir>/state.json}.
 *
 * <p>ssh ({@link LabSsh}, when asked for): an sshd in every node namespace on the node's management
 * address, and the client shim {@code <dir>/bin/ssh}, which runs ssh in the management namespace.
 * {@link #execCommand} runs any command in a node's namespace. Whatever runs in a lab namespace ends
 * with {@link #down}.
 *
 * <p>Switches (a topology with {@code "switches"}): each is a namespace {@code <prefix>-s-<switch>}
 * holding bridge {@value LabNames#BRIDGE} over its ports (the veth ends {@code pN}, no address),
 * and an {@link Lldpd} that announces the switch's name and each {@code pN}. The bridge forwards the
 * probe's hellos (IPv6 link-local multicast; multicast snooping off) but not LLDP frames
 * (01:80:c2:00:00:0e is link-local: a Linux bridge never forwards it by default), so each node port
 * hears the nodes on its switch through the probe and the switch itself through LLDP. In such a lab
 * every node runs an lldpd too, on its cable ports, its control socket kept in the state
 * ({@link LabState.Lldpd}) and given to the node's daemon ({@link LabContext#lldpdSocket}). Each
 * lldpd's socket, configuration and log are {@code <dir>/lldpd-<name>.sock}, {@code .conf} and
 * {@code .log}. A lab without switches runs no lldpd and does not need it installed.
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
     * @param lldpdSocket the control socket of the node's lldpd (empty in a lab without switches)
     */
    public record LabContext(String node, int index, LabTopology topology, Path socket, LabNames names, Path key,
                             Optional<Path> lldpdSocket) {
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

    /** @return the control socket of the lldpd of a node or switch */
    public Path lldpdSocket(String name) {
        return dir.resolve("lldpd-" + name + ".sock");
    }

    /** @return the namespace of a node or a switch of the topology */
    public String namespace(LabTopology topology, String name) {
        return topology.isSwitch(name) ? names.switchNamespace(name) : names.nodeNamespace(name);
    }

    /** @return the lab's ssh: its files and sshd */
    public LabSsh ssh() {
        return new LabSsh(dir, names);
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
     * Makes the lab without ssh and starts a daemon in every node: {@link #up(LabTopology, List, LabSsh.Mode)}
     * with {@link LabSsh.Mode#OFF}.
     */
    public LabState up(LabTopology topology, List<String> daemon) {
        return up(topology, daemon, LabSsh.Mode.OFF);
    }

    /**
     * Makes the lab, starts an sshd in every node when ssh is on, then a daemon in every node. On any
     * failure, removes what it made.
     *
     * @param topology the nodes, switches and cables
     * @param daemon   the command that starts railmapd, before its flags
     * @param ssh      whether to run sshd: {@link LabSsh.Mode#AUTO} runs it when it can, else records why not
     * @return the state written
     * @throws LabException when namespaces cannot be made here, the topology has switches and lldpd
     *                      is not installed (naming the package), ssh is {@link LabSsh.Mode#ON} and
     *                      cannot run (saying why), a lab with this prefix is up already, or a command
     *                      fails (sshd not listening within {@value LabSsh#WAIT_MS} ms among them)
     */
    public LabState up(LabTopology topology, List<String> daemon, LabSsh.Mode ssh) {
        Netns.unavailable().ifPresent(why -> {
            throw new LabException(why);
        });
        if (!topology.switches().isEmpty()) {
            Lldpd.unavailable(Lldpd.searchPath()).ifPresent(why -> {
                throw new LabException(why);
            });
        }
        String user = System.getProperty("user.name");
        LabState.Ssh sshState = ssh == LabSsh.Mode.OFF ? LabState.Ssh.off("not asked for (railmap lab up --ssh off)")
                : ssh().unavailable(topology, user).map(LabState.Ssh::off).orElse(LabState.Ssh.on());
        if (ssh == LabSsh.Mode.ON && !sshState.isOn()) {
            throw new LabException("--ssh on: " + sshState.off().orElseThrow());
        }
        if (state().isPresent() || !leftovers().isEmpty()) {
            throw new LabException("a lab is up already (" + String.join(", ", leftovers().isEmpty()
                    ? List.of(dir.resolve("state.json").toString()) : leftovers()) + "): run railmap lab down first");
        }
        try {
            Files.createDirectories(dir);
            if (!topology.switches().isEmpty()) {
                Lldpd.reachable(dir);
            }
            writeKey();
            String mgmt = names.mgmtNamespace();
            Netns.add(mgmt);
            Netns.bridge(mgmt, LabNames.BRIDGE);
            Netns.address(mgmt, LabNames.BRIDGE, LabNames.MGMT_HOST_ADDRESS + "/24");
            for (int i = 0; i < topology.nodes().size(); i++) {
                String ns = names.nodeNamespace(topology.nodes().get(i));
                Netns.add(ns);
                Netns.veth(ns, LabNames.MGMT_IF, mgmt, LabNames.bridgePort(i));
                Netns.enslave(mgmt, LabNames.bridgePort(i), LabNames.BRIDGE);
                Netns.address(ns, LabNames.MGMT_IF, LabNames.mgmtAddress(i) + "/24");
            }
            for (String sw : topology.switches()) {
                Netns.add(names.switchNamespace(sw));
                Netns.bridge(names.switchNamespace(sw), LabNames.BRIDGE);
            }
            AddressPlan plan = topology.addresses();
            for (int i = 0; i < topology.cables().size(); i++) {
                plug(topology, plan, i);
            }
            LabState state = new LabState(names.prefix(), topology, daemon, Map.of(), sshState);
            state.write(dir);
            if (sshState.isOn()) {
                ssh().make(topology, user);
                for (Map.Entry<String, Long> sshd : ssh().start(topology).entrySet()) {
                    sshState = sshState.withPid(sshd.getKey(), sshd.getValue());
                }
                state = state.withSsh(sshState);
                state.write(dir);
            }
            if (!topology.switches().isEmpty()) {
                for (String name : topology.names()) {
                    state = state.withLldpd(name, new LabState.Lldpd(lldpdSocket(name), Optional.of(startLldpd(topology, name))));
                    state.write(dir);
                }
            }
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

    /**
     * Makes cable {@code i} of the topology: a veth pair, each node end given its address of the
     * topology's plan ({@link LabTopology#addresses}), a switch end made a port of its switch's bridge.
     */
    private void plug(LabTopology topology, AddressPlan plan, int i) {
        Cable c = topology.cables().get(i);
        Netns.veth(namespace(topology, c.a().node()), c.a().netdev(), namespace(topology, c.b().node()), c.b().netdev());
        for (PortRef port : List.of(c.a(), c.b())) {
            String ns = namespace(topology, port.node());
            if (topology.isSwitch(port.node())) {
                Netns.enslave(ns, port.netdev(), LabNames.BRIDGE);
            } else {
                AddressPlan.Assignment link = plan.links().stream().filter(l -> l.link().ends().contains(port)).findFirst().orElseThrow();
                Netns.address(ns, port.netdev(), link.address(port) + "/" + link.subnet().prefixLength());
            }
        }
    }

    private long startLldpd(LabTopology topology, String name) {
        return Lldpd.start(namespace(topology, name), name, topology.isSwitch(name), topology.ports(name), lldpdSocket(name),
                dir.resolve("lldpd-" + name + ".conf"), dir.resolve("lldpd-" + name + ".log"));
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
        Netns.deleteAll(removed);
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
        Netns.link(namespace(state.topology(), end.node()), end.netdev(), up);
    }

    /**
     * Moves the switch end of a node's cable to another switch port (re-cabling, as a person moves a
     * cable between leaves): the veth's switch end leaves its bridge and namespace and becomes
     * {@code to}, a port of the other switch's bridge. The node's interface stays as it is (name,
     * index, address); it loses carrier for the move, as a re-plugged cable does.
     *
     * @param from the node's end of a cable to a switch ({@code g1:eth2})
     * @param to   a free port of a switch of the lab ({@code leaf1:p5})
     * @throws LabException when no lab is up, {@code from} is not a node's end of a cable to a switch,
     *                      {@code to} is not a switch's free {@code pN} port, or a command fails
     */
    public void move(PortRef from, PortRef to) {
        LabState state = require();
        LabTopology next;
        try {
            next = state.topology().moveCable(from, to);
        } catch (IllegalArgumentException e) {
            throw new LabException("cannot move " + from + " to " + to + ": " + e.getMessage());
        }
        PortRef old = state.topology().cableAt(from).orElseThrow().farEnd(from);
        // the switch end leaves its switch for the management namespace (which names its links m<i>, never pN), and
        // arrives at the other switch only once the first switch's lldpd has dropped it: lldpd takes neither a link
        // renamed in its namespace nor one that arrives under a name it still lists as a new port
        String fromSwitch = names.switchNamespace(old.node());
        String toSwitch = names.switchNamespace(to.node());
        Netns.moveLink(fromSwitch, old.netdev(), names.mgmtNamespace(), old.netdev());
        if (lldpdRunning(state, old.node())) {
            Lldpd.awaitGone(state.lldpd().get(old.node()).socket(), old.netdev());
        }
        Netns.moveLink(names.mgmtNamespace(), old.netdev(), toSwitch, to.netdev());
        Netns.link(toSwitch, to.netdev(), true);
        Netns.enslave(toSwitch, to.netdev(), LabNames.BRIDGE);
        state.withTopology(next).write(dir);
    }

    /**
     * Stops or starts the lldpd of a node or switch (a node whose LLDP goes silent).
     *
     * @param name the node or switch
     * @param run  true to start it, false to stop it (SIGTERM; it removes its socket)
     * @return true when something changed: it was started, or it was running and is stopped
     * @throws LabException when no lab is up, the lab has no switches (so no lldpd), the name is not in
     *                      it, or lldpd does not start or stop
     */
    public boolean lldpd(String name, boolean run) {
        LabState state = require();
        LabState.Lldpd entry = state.lldpd().get(name);
        if (entry == null) {
            throw new LabException(state.lldpd().isEmpty() ? "this lab runs no lldpd: only a lab with switches does"
                    : Names.escape(name) + " is not a node or switch of the lab (nodes: " + String.join(", ", state.topology().nodes())
                    + "; switches: " + String.join(", ", state.topology().switches()) + ")");
        }
        String ns = namespace(state.topology(), name);
        boolean alive = lldpdRunning(state, name);
        if (run == alive) {
            return false;
        }
        if (run) {
            state.withLldpd(name, entry.withPid(Optional.of(startLldpd(state.topology(), name)))).write(dir);
        } else {
            Lldpd.stop(ns, entry.pid().orElseThrow(), entry.socket());
            state.withLldpd(name, entry.withPid(Optional.empty())).write(dir);
        }
        return true;
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

    /** @return node or switch (nodes first) → whether each of its cable ports has carrier */
    public Map<String, Map<String, Boolean>> carriers(LabState state) {
        Map<String, Map<String, Boolean>> out = new LinkedHashMap<>();
        for (String name : state.topology().names()) {
            Map<String, Boolean> ports = new LinkedHashMap<>();
            for (String port : state.topology().ports(name)) {
                ports.put(port, Netns.hasCarrier(namespace(state.topology(), name), port));
            }
            out.put(name, ports);
        }
        return out;
    }

    /** @return true when the node's sshd (by the state's pid) is alive inside its namespace */
    public boolean sshdRunning(LabState state, String node) {
        Long pid = state.ssh().pids().get(node);
        return pid != null && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && Netns.holds(names.nodeNamespace(node), pid);
    }

    /**
     * The command line that runs a program in a node's namespace ({@code ip netns exec}), as the
     * caller runs it: with the caller's environment, standard streams and working directory.
     *
     * @param node    the node
     * @param command the program and its arguments
     * @return {@code ip netns exec <namespace> <command...>}
     * @throws LabException when no lab is up or the node is not in it
     */
    public List<String> execCommand(String node, List<String> command) {
        requireNode(node);
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", names.nodeNamespace(node)));
        full.addAll(command);
        return full;
    }

    /** @return true when the lldpd of a node or switch (by the state's pid) is alive inside its namespace */
    public boolean lldpdRunning(LabState state, String name) {
        LabState.Lldpd entry = state.lldpd().get(name);
        return entry != null && entry.pid().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && Netns.holds(namespace(state.topology(), name), pid)).isPresent();
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
        List<String> command = new ArrayList<>(state.daemon());
        command.addAll(flags.apply(new LabContext(node, index, state.topology(), socket(node), names, key(),
                Optional.ofNullable(state.lldpd().get(node)).map(LabState.Lldpd::socket))));
        return Netns.spawn(names.nodeNamespace(node), command, log(node));
    }
}
