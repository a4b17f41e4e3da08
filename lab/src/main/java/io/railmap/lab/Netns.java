package io.railmap.lab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Network namespace, veth and bridge primitives over iproute2; every call bounded by {@link Ip#TIMEOUT_MS}. */
public final class Netns {
    private Netns() {
    }

    /** @return why namespaces cannot be made here (not Linux, not root, no iproute2), or empty when they can */
    public static Optional<String> unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("network namespaces need root; run as root (sudo), not as " + System.getProperty("user.name"));
        }
        try {
            Ip.run("ip", "netns", "list");
        } catch (LabException e) {
            return Optional.of("the ip command (iproute2) does not work here: " + e.getMessage()
                    + " (Debian/Ubuntu: apt-get install iproute2)");
        }
        // listing works without privileges; making one needs CAP_SYS_ADMIN, which a container may lack
        String trial = "rmcheck-" + ProcessHandle.current().pid();
        try {
            Ip.run("ip", "netns", "add", trial);
        } catch (LabException e) {
            return Optional.of("network namespaces cannot be made here: " + e.getMessage());
        } finally {
            Ip.runQuietly("ip", "netns", "delete", trial);
        }
        return Optional.empty();
    }

    /**
     * Makes a namespace with IPv6 on, duplicate address detection off (link-local addresses are usable
     * as soon as a link is up) and loopback up.
     */
    public static void add(String ns) {
        Ip.run("ip", "netns", "add", ns);
        for (String conf : List.of("all", "default")) {
            Ip.run("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf." + conf + ".disable_ipv6=0",
                    "net.ipv6.conf." + conf + ".accept_dad=0");
        }
        Ip.run("ip", "-n", ns, "link", "set", "lo", "up");
    }

    /** @return every network namespace on the machine */
    public static List<String> list() {
        List<String> out = new ArrayList<>();
        for (String line : Ip.run("ip", "netns", "list").split("\n")) {
            String name = line.trim().split("\\s+")[0];
            if (!name.isEmpty()) {
                out.add(name);
            }
        }
        return out;
    }

    /** @return the pids of processes inside a namespace (empty when it does not exist) */
    public static List<Long> pids(String ns) {
        List<Long> out = new ArrayList<>();
        try {
            for (String token : Ip.run("ip", "netns", "pids", ns).split("\\s+")) {
                if (token.matches("[0-9]+")) {
                    out.add(Long.parseLong(token));
                }
            }
        } catch (LabException e) {
            // no such namespace: no processes
        }
        return out;
    }

    /** @return true when process {@code pid} runs inside namespace {@code ns} */
    public static boolean holds(String ns, long pid) {
        try {
            return Ip.run("ip", "netns", "identify", Long.toString(pid)).trim().equals(ns);
        } catch (LabException e) {
            return false;
        }
    }

    /** Ends every process inside a namespace (SIGKILL, waiting up to 5 s), then deletes it. */
    public static void delete(String ns) {
        deleteAll(List.of(ns));
    }

    /**
     * Ends every process inside the namespaces (SIGKILL to all of them first, then waiting up to 5 s
     * in all for them to be gone: a process whose parent is gone is reaped by init, which may take a
     * second), then deletes the namespaces.
     */
    public static void deleteAll(List<String> namespaces) {
        List<ProcessHandle> ending = new ArrayList<>();
        for (String ns : namespaces) {
            for (long pid : pids(ns)) {
                ProcessHandle.of(pid).ifPresent(p -> {
                    p.destroyForcibly();
                    ending.add(p);
                });
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle p : ending) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception ignored) {
                // it is gone, or will be when the namespace goes
            }
        }
        for (String ns : namespaces) {
            Ip.runQuietly("ip", "netns", "delete", ns);
        }
    }

    /** A veth pair with one end in each namespace, both up. */
    public static void veth(String nsA, String ifA, String nsB, String ifB) {
        Ip.run("ip", "link", "add", ifA, "netns", nsA, "type", "veth", "peer", "name", ifB, "netns", nsB);
        Ip.run("ip", "-n", nsA, "link", "set", ifA, "up");
        Ip.run("ip", "-n", nsB, "link", "set", ifB, "up");
    }

    /** Brings a link up or takes it down (administratively: a veth's far end loses carrier). */
    public static void link(String ns, String ifName, boolean up) {
        Ip.run("ip", "-n", ns, "link", "set", ifName, up ? "up" : "down");
    }

    /** @return true when a link is administratively up and has carrier */
    public static boolean hasCarrier(String ns, String ifName) {
        String line = Ip.run("ip", "-n", ns, "-o", "link", "show", "dev", ifName);
        return line.contains(",UP") && line.contains("LOWER_UP");
    }

    /**
     * A bridge in a namespace, up, with IGMP snooping off so that multicast (the cluster's multicast
     * discovery) reaches every port without a querier on the segment.
     */
    public static void bridge(String ns, String bridge) {
        Ip.run("ip", "-n", ns, "link", "add", bridge, "type", "bridge", "mcast_snooping", "0");
        Ip.run("ip", "-n", ns, "link", "set", bridge, "up");
    }

    /**
     * The bytes a namespace's links have received and sent, from the kernel's 64-bit counters
     * ({@code ip -s -j link show}: {@code stats64.rx.bytes} and {@code stats64.tx.bytes}, the
     * counters of {@code /sys/class/net/<link>/statistics}).
     *
     * @param ns the namespace
     * @return link name → its byte counters, in the kernel's order
     * @throws LabException when {@code ip} fails or answers with something other than its JSON
     */
    public static Map<String, LinkBytes> linkBytes(String ns) {
        String json = Ip.run("ip", "-n", ns, "-s", "-j", "link", "show");
        Map<String, LinkBytes> out = new LinkedHashMap<>();
        try {
            for (JsonNode link : new ObjectMapper().readTree(json)) {
                JsonNode stats = link.path("stats64");
                if (!link.path("ifname").isTextual() || !stats.path("rx").path("bytes").canConvertToLong()
                        || !stats.path("tx").path("bytes").canConvertToLong()) {
                    throw new LabException("ip -s -j link show in " + ns + " gave a link without ifname or byte counters");
                }
                out.put(link.get("ifname").asText(), new LinkBytes(stats.get("rx").get("bytes").asLong(), stats.get("tx").get("bytes").asLong()));
            }
        } catch (JsonProcessingException e) {
            throw new LabException("ip -s -j link show in " + ns + " did not answer JSON: " + e.getOriginalMessage());
        }
        return out;
    }

    /**
     * One link's byte counters.
     *
     * @param rx bytes received
     * @param tx bytes sent
     */
    public record LinkBytes(long rx, long tx) {
        /** @return the bytes received and sent since {@code before}, a reading of the same link taken earlier */
        public LinkBytes since(LinkBytes before) {
            return new LinkBytes(rx - before.rx, tx - before.tx);
        }

        /** @return bytes received plus bytes sent */
        public long total() {
            return rx + tx;
        }
    }

    /** Makes a link a port of a bridge in the same namespace. */
    public static void enslave(String ns, String ifName, String bridge) {
        Ip.run("ip", "-n", ns, "link", "set", ifName, "master", bridge);
    }

    /** @return the names of the links that are ports of {@code bridge} in a namespace, sorted */
    public static List<String> bridgePorts(String ns, String bridge) {
        List<String> out = new ArrayList<>();
        for (String line : Ip.run("ip", "-n", ns, "-o", "link", "show", "master", bridge).split("\n")) {
            String[] fields = line.trim().split(":\\s+|@", 3);
            if (fields.length >= 2) {
                out.add(fields[1].split("@")[0]);
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Moves a link, down, to another namespace, named {@code toIf} there (renamed before it leaves, so
     * {@code toIf} must be free in both namespaces). A veth's far end loses carrier meanwhile and keeps
     * its name, index and addresses. Bring the link up with {@link #link}.
     */
    public static void moveLink(String fromNs, String fromIf, String toNs, String toIf) {
        Ip.run("ip", "-n", fromNs, "link", "set", fromIf, "down");
        if (!fromIf.equals(toIf)) {
            Ip.run("ip", "-n", fromNs, "link", "set", fromIf, "name", toIf);
        }
        Ip.run("ip", "-n", fromNs, "link", "set", toIf, "netns", toNs);
    }

    /**
     * Starts a long-running program inside a namespace, in a session of its own ({@code setsid}, where
     * there is one), so that it outlives the command that started it.
     *
     * @param ns      the namespace
     * @param command the program and its arguments
     * @param log     where its standard output and error go (appended)
     * @return its pid
     * @throws LabException when it cannot be started
     */
    public static long spawn(String ns, List<String> command, Path log) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        if (new File("/usr/bin/setsid").canExecute() || new File("/bin/setsid").canExecute()) {
            full.add("setsid");
        }
        full.addAll(command);
        try {
            return new ProcessBuilder(full)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectErrorStream(true)
                    .start().pid();
        } catch (IOException e) {
            throw new LabException("cannot start " + command.get(0) + " in " + ns + ": " + e.getMessage());
        }
    }

    /**
     * @param log the log of a program started by {@link #spawn}
     * @return its last 3 lines joined by {@code " | "}, escaped, for a message; {@code "no log"} when it cannot be read
     */
    public static String logTail(Path log) {
        try {
            List<String> lines = java.nio.file.Files.readAllLines(log);
            return io.railmap.matrix.model.Names.escape(String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())), 1024);
        } catch (IOException | java.io.UncheckedIOException e) {
            return "no log";
        }
    }

    /** Adds an address such as {@code 10.231.0.1/24} to a link. */
    public static void address(String ns, String ifName, String cidr) {
        Ip.run("ip", "-n", ns, "addr", "add", cidr, "dev", ifName);
    }
}
