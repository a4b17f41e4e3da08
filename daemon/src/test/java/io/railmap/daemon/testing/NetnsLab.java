package io.railmap.daemon.testing;

import static org.awaitility.Awaitility.await;

import io.railmap.lab.Ip;
import io.railmap.lab.LabNames;
import io.railmap.lab.Netns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Network namespaces joined by veth pairs, for tests with real sockets. Namespaces are named
 * {@code rmtest-<pid>-<name>}, the pid being this JVM's, so parallel runs never touch each other's;
 * {@link #create()} first removes those left behind by JVMs that no longer run (ending, by pid,
 * any process still inside them), and
 * {@link #close()} ends what it {@link #own}s (the daemons started in it) and removes this lab's
 * namespaces (deleting a namespace deletes its veth ends). Veths are
 * created directly inside their namespaces, so their names never meet the host's. Every command
 * is bounded in time.
 */
public final class NetnsLab implements AutoCloseable {
    public static final String FAMILY = "rmtest-";
    /** The bridge's name in a namespace made by {@link #bridge}. */
    public static final String BRIDGE = LabNames.BRIDGE;

    private final String prefix = FAMILY + ProcessHandle.current().pid() + "-";
    private final List<String> namespaces = new ArrayList<>();
    /** What runs in this lab's namespaces and ends with it (daemons), newest last. */
    private final List<AutoCloseable> owned = new ArrayList<>();

    private NetnsLab() {
    }

    /** @return why namespaces cannot be made here, or empty when they can */
    public static Optional<String> unavailable() {
        return Netns.unavailable();
    }

    /** @return a new empty lab, after removing namespaces left behind by dead test JVMs */
    public static NetnsLab create() {
        for (String name : Netns.list()) {
            if (!name.startsWith(FAMILY)) {
                continue;
            }
            String pid = name.substring(FAMILY.length()).split("-")[0];
            boolean alive = pid.chars().allMatch(Character::isDigit) && !pid.isEmpty()
                    && ProcessHandle.of(Long.parseLong(pid)).isPresent();
            if (!alive) {
                // ends the processes a dead run left inside (they keep the namespace's links alive)
                Netns.delete(name);
            }
        }
        return new NetnsLab();
    }

    /**
     * Makes a namespace with IPv6 on and duplicate address detection off (so that link-local
     * addresses are usable as soon as a link is up), and its loopback up.
     *
     * @param name a short name, unique in this lab
     * @return the namespace's full name
     */
    public String namespace(String name) {
        String ns = prefix + name;
        Netns.add(ns);
        namespaces.add(ns);
        return ns;
    }

    /**
     * Ends {@code thing} with this lab ({@link #close}, newest first, before the namespaces go): the
     * daemons a test starts in it need no cleanup of their own.
     *
     * @return {@code thing}
     */
    public <T extends AutoCloseable> T own(T thing) {
        owned.add(thing);
        return thing;
    }

    /**
     * Joins two namespaces with a veth pair, brings both ends up, and waits for their IPv6
     * link-local addresses.
     */
    public void cable(String nsA, String ifA, String nsB, String ifB) {
        Netns.veth(nsA, ifA, nsB, ifB);
        awaitLinkLocal(nsA, ifA);
        awaitLinkLocal(nsB, ifB);
    }

    /**
     * Makes a namespace holding one bridge, {@value #BRIDGE}: a management switch of its own, apart
     * from the host's network ({@link Netns#bridge}).
     *
     * @param name a short name, unique in this lab
     * @return the namespace's full name
     */
    public String bridge(String name) {
        String ns = namespace(name);
        Netns.bridge(ns, BRIDGE);
        return ns;
    }

    /**
     * Plugs a node namespace into a bridge: a veth pair whose node end {@code ifName} gets the IPv4
     * address {@code cidr} and whose bridge end, {@link #bridgePort bridgePort(ns)}, is a port of the
     * bridge. Both ends are up when this returns.
     *
     * @param bridgeNs the bridge's namespace ({@link #bridge})
     * @param ns       the node's namespace
     * @param ifName   the interface name in the node, e.g. {@code mgmt}
     * @param cidr     its address, e.g. {@code 10.77.0.1/24}
     */
    public void plug(String bridgeNs, String ns, String ifName, String cidr) {
        String port = bridgePort(ns);
        Netns.veth(ns, ifName, bridgeNs, port);
        Netns.enslave(bridgeNs, port, BRIDGE);
        Netns.address(ns, ifName, cidr);
    }

    /**
     * @param ns a node namespace plugged into a bridge
     * @return the name of its port on the bridge (at most 15 characters)
     */
    public String bridgePort(String ns) {
        String suffix = ns.substring(prefix.length());
        return "p-" + (suffix.length() > 13 ? suffix.substring(0, 13) : suffix);
    }

    /** Takes one end of a link down (administratively; the far end loses carrier). */
    public void linkDown(String ns, String ifName) {
        Netns.link(ns, ifName, false);
    }

    /**
     * Brings one end of a link up and, when its far end is up too (a link without carrier gets no
     * IPv6 address), waits for its usable IPv6 link-local address.
     */
    public void linkUp(String ns, String ifName) {
        Netns.link(ns, ifName, true);
        if (Netns.hasCarrier(ns, ifName)) {
            awaitLinkLocal(ns, ifName);
        }
    }

    private static void awaitLinkLocal(String ns, String ifName) {
        await("link-local address on " + ns + "/" + ifName).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    String out = Ip.run("ip", "-n", ns, "-6", "-o", "addr", "show", "dev", ifName, "scope", "link");
                    return out.contains("fe80:") && !out.contains("tentative");
                });
    }

    /**
     * Starts a process inside a namespace. The caller owns it and must end it.
     *
     * @param ns      the namespace
     * @param command the command and its arguments
     * @param stderr  where its standard error goes (appended, so a restarted process adds to the
     *                same file)
     * @return the process ({@code ip netns exec} replaces itself with the command, so the pid is
     *         the command's)
     */
    public Process start(String ns, List<String> command, Path stderr) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        full.addAll(command);
        return new ProcessBuilder(full).redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile())).start();
    }

    /** Removes every namespace of this lab (ending what still runs inside); never throws. */
    @Override
    public void close() {
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                System.err.println("could not close " + owned.get(i) + ": " + e.getMessage());
            }
        }
        owned.clear();
        for (String ns : namespaces) {
            try {
                Netns.delete(ns);
            } catch (RuntimeException e) {
                System.err.println("could not remove network namespace " + ns + ": " + e.getMessage());
            }
        }
        namespaces.clear();
    }
}
