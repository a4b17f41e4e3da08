package io.railmap.daemon.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real daemons in namespaces for the running-jobs tests: nodes on one management bridge (addresses
 * {@code <subnet>1}, {@code <subnet>2}, ... /24), cables between them, one daemon per node with a
 * shared cluster key (the cluster's records then travel encrypted, as on a real cluster) and the lab's
 * fast hellos, and stand-in ranks: a {@code sleep} started with only the environment given.
 * The {@link NetnsLab} under it ends the daemons and the namespaces at {@link #close()}.
 */
public final class RankLab implements AutoCloseable {
    private static final String KEY = "c2hhcmVkIHNlY3JldCBvZiB0aGUgbGFiJ3MgY2x1c3Rlcg==\n";

    private final NetnsLab lab;
    private final Path dir;
    private final Map<String, String> ns = new LinkedHashMap<>();
    private final Map<String, DaemonProcess> daemons = new LinkedHashMap<>();

    private RankLab(NetnsLab lab, Path dir) {
        this.lab = lab;
        this.dir = dir;
    }

    /**
     * Makes the nodes' namespaces on a management bridge.
     *
     * @param dir    where keys, logs and the ranks' standard error go
     * @param subnet the management /24's first three bytes and a dot, e.g. {@code 10.78.0.}: one per test class
     * @param nodes  the node names
     */
    public static RankLab create(Path dir, String subnet, List<String> nodes) {
        RankLab made = new RankLab(NetnsLab.create(), dir);
        String bridge = made.lab.bridge("sw");
        int host = 1;
        for (String node : nodes) {
            made.ns.put(node, made.lab.namespace(node));
            made.lab.plug(bridge, made.ns.get(node), "mgmt", subnet + host++ + "/24");
        }
        return made;
    }

    /** A cable between {@code a}'s port {@code ifA} and {@code b}'s port {@code ifB}. */
    public void cable(String a, String ifA, String b, String ifB) {
        lab.cable(ns.get(a), ifA, ns.get(b), ifB);
    }

    /**
     * Starts one daemon per node, ports {@code en*}, hellos every 250 ms, cluster {@code cluster} with the shared key.
     *
     * @param flags further railmapd flags, by node (a node not named gets none)
     */
    public void start(String cluster, Map<String, List<String>> flags) throws IOException {
        Path key = Files.writeString(dir.resolve("cluster.key"), KEY);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        for (String node : ns.keySet()) {
            List<String> all = new ArrayList<>(List.of("--interfaces", "en*", "--probe-interval-ms", "250", "--cluster", cluster,
                    "--cluster-key-file", key.toString()));
            all.addAll(flags.getOrDefault(node, List.of()));
            daemons.put(node, DaemonProcess.start(lab, ns.get(node), dir, node, all.toArray(String[]::new)));
        }
    }

    /**
     * A stand-in rank: {@code sleep 60} in the node's namespace, its environment only {@code PATH} and {@code env}.
     * The caller ends it.
     *
     * @param env  the environment: the collective settings, and whatever secret the test plants
     * @param name names its standard error file ({@code <name>.err} in the directory)
     */
    public Process rank(String node, Map<String, String> env, String name) throws IOException {
        List<String> command = new ArrayList<>(List.of("env", "-i", "PATH=/usr/bin:/bin"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(List.of("sleep", "60"));
        return lab.start(ns.get(node), command, dir.resolve(name + ".err"));
    }

    /** @return the node's namespace */
    public String ns(String node) {
        return ns.get(node);
    }

    /** @return the lab under it */
    public NetnsLab lab() {
        return lab;
    }

    /** @return the daemons by node, in the order the nodes were given */
    public Map<String, DaemonProcess> daemons() {
        return daemons;
    }

    @Override
    public void close() {
        lab.close();
    }
}
