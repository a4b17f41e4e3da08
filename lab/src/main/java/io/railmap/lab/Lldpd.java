package io.railmap.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * One lldpd (the LLDP daemon of Linux distributions, lldpd(8)) in a lab namespace: a switch's, which
 * announces the switch's name as its system name and chassis ID (subtype local) and {@code pN} as the
 * port ID (subtype ifname) on its ports, or a node's, which announces the node's name on the node's
 * cable ports and lets the node's railmapd read its neighbours.
 *
 * <p>Each runs in the foreground ({@code -d}, so it writes no pid file of its own; its pid is kept in
 * the lab state), with its own control socket ({@code -u}), its interfaces ({@code -I}) and its own
 * configuration file ({@code -O}, instead of {@code /etc/lldpd.conf} and {@code /etc/lldpd.d}), which
 * sets the transmit interval to {@value #TX_INTERVAL_S} s (received entries live 4 intervals). Its
 * output goes to a log file. Read it with {@code lldpcli -u SOCKET -f json0 show neighbors}.
 */
public final class Lldpd {
    /** The Debian package that holds lldpd and lldpcli. */
    public static final String PACKAGE = "lldpd";
    /** The lab's LLDP transmit interval in seconds (lldpd's default is 30). */
    public static final int TX_INTERVAL_S = 1;
    /** The longest Unix socket path (sun_path holds 108 bytes with its terminating NUL). */
    public static final int MAX_SOCKET_PATH = 107;
    /** How long lldpd may take to make its control socket, and to end after SIGTERM, in ms. */
    public static final long WAIT_MS = 10_000;

    private Lldpd() {
    }

    /** @return where the lab looks for lldpd and lldpcli: {@code PATH}, then {@code /usr/sbin} and {@code /sbin} */
    public static String searchPath() {
        return System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
    }

    /**
     * @param path the directories to look in, ":"-separated ({@link #searchPath()})
     * @return why lldpd cannot run here (lldpd or lldpcli not found), naming the package to install;
     *         empty when both are there
     */
    public static Optional<String> unavailable(String path) {
        for (String program : List.of("lldpd", "lldpcli")) {
            if (find(program, path).isEmpty()) {
                return Optional.of("a lab with switches runs lldpd, and " + program + " is not installed here (looked in "
                        + path + "): install it (Debian/Ubuntu: apt-get install " + PACKAGE + ")");
            }
        }
        return Optional.empty();
    }

    /**
     * Lets lldpcli reach the control sockets in {@code dir}: lldpcli is installed setuid to user
     * {@code _lldpd} (Debian), so every directory on the way to a socket must be searchable by others.
     * Adds search permission for others to {@code dir} itself (the lab's own directory, which it
     * makes); its files keep their own modes (the cluster key stays 0600).
     *
     * @param dir the lab's state directory, existing
     * @throws LabException when a directory above {@code dir} is not searchable by others, naming it
     */
    static void reachable(Path dir) {
        try {
            Set<PosixFilePermission> mode = new HashSet<>(Files.getPosixFilePermissions(dir));
            if (mode.add(PosixFilePermission.OTHERS_EXECUTE)) {
                Files.setPosixFilePermissions(dir, mode);
            }
            for (Path d = dir.toAbsolutePath().getParent(); d != null; d = d.getParent()) {
                if (!Files.getPosixFilePermissions(d).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    throw new LabException("lldpcli runs as user _lldpd, which cannot reach the lab's lldpd sockets in " + dir + ": "
                            + d + " is not searchable by others (mode " + PosixFilePermissions.toString(Files.getPosixFilePermissions(d))
                            + "); set RAILMAP_LAB_DIR to a directory below ones every user may enter (the default is)");
                }
            }
        } catch (IOException e) {
            throw new LabException("cannot read the permissions of " + dir + ": " + e.getMessage());
        }
    }

    /** @return the executable {@code program} in one of the ":"-separated directories of {@code path} */
    static Optional<Path> find(String program, String path) {
        return Stream.of(path.split(":")).filter(d -> !d.isEmpty()).map(d -> Path.of(d, program)).filter(Files::isExecutable).findFirst();
    }

    /**
     * What lldpd is told at start ({@code -O}): lldpcli(8) commands.
     *
     * @param name     the node's or switch's name: its system name, and for a switch its chassis ID
     * @param isSwitch true for a switch
     * @return the configuration file's text
     */
    static String configuration(String name, boolean isSwitch) {
        return "configure system hostname " + name + "\n"
                + (isSwitch ? "configure system chassisid " + name + "\n" : "")
                + "configure lldp portidsubtype ifname\n"
                + "configure lldp tx-interval " + TX_INTERVAL_S + "\n";
    }

    /**
     * @param ports    the node's cable ports (for a switch: ignored, every {@code p*} is taken, so a
     *                 cable moved onto a new port is announced on it too)
     * @return the {@code -I} pattern
     */
    static String interfaces(List<String> ports, boolean isSwitch) {
        if (isSwitch) {
            return "p*";
        }
        return ports.isEmpty() ? "!*" : String.join(",", ports);
    }

    /**
     * Starts lldpd in a namespace and waits until its control socket exists.
     *
     * @param ns       the namespace
     * @param name     the node's or switch's name
     * @param isSwitch true for a switch
     * @param ports    its cable ports
     * @param socket   its control socket (at most {@value #MAX_SOCKET_PATH} bytes); a file left there
     *                 by an lldpd that was killed is removed first
     * @param config   where its configuration file goes
     * @param log      where its output goes (appended)
     * @return its pid
     * @throws LabException when the socket path is too long, lldpd cannot start, exits, or makes no
     *                      socket within {@value #WAIT_MS} ms (with the end of its log)
     */
    static long start(String ns, String name, boolean isSwitch, List<String> ports, Path socket, Path config, Path log) {
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            throw new LabException("lldpd's control socket " + socket + " is longer than " + MAX_SOCKET_PATH
                    + " bytes: set RAILMAP_LAB_DIR to a shorter directory");
        }
        try {
            Files.writeString(config, configuration(name, isSwitch));
            removeSocket(socket);
        } catch (IOException e) {
            throw new LabException("cannot write " + config + " for the lldpd of " + name + ": " + e.getMessage());
        }
        String lldpd = find("lldpd", searchPath()).map(Path::toString).orElse("lldpd");
        long pid = Netns.spawn(ns, List.of(lldpd, "-d", "-u", socket.toString(), "-I", interfaces(ports, isSwitch),
                "-O", config.toString()), log);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!Files.exists(socket)) {
            if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true) || System.nanoTime() > deadline) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                throw new LabException("the lldpd of " + name + " made no control socket " + socket + " within "
                        + WAIT_MS / 1000 + " s (log " + log + ": " + Netns.logTail(log) + ")");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while the lldpd of " + name + " started");
            }
        }
        return pid;
    }

    /**
     * Ends an lldpd: SIGTERM (it removes its socket), SIGKILL after {@value #WAIT_MS} ms; then removes
     * whatever it left at its socket path.
     *
     * @param ns     the namespace it runs in (a pid outside it is not touched)
     * @param pid    its pid
     * @param socket its control socket
     * @throws LabException when it is still alive after SIGKILL, or its socket cannot be removed
     */
    static void stop(String ns, long pid, Path socket) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(h -> Netns.holds(ns, pid));
        if (p.isPresent()) {
            try {
                p.get().destroy();
                try {
                    p.get().onExit().get(WAIT_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    p.get().destroyForcibly();
                    p.get().onExit().get(WAIT_MS, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while lldpd (pid " + pid + ") ended");
            } catch (Exception e) {
                throw new LabException("lldpd (pid " + pid + ") in " + ns + " did not end: " + e.getMessage());
            }
        }
        try {
            removeSocket(socket);
        } catch (IOException e) {
            throw new LabException("cannot remove lldpd's socket " + socket + ": " + e.getMessage());
        }
    }

    /**
     * Waits until an lldpd no longer lists an interface (it notices a link that left its namespace
     * through netlink, within milliseconds). A link of the same name that arrives before lldpd has
     * dropped the old one is not taken up: lldpd keeps sending on the old, gone device.
     *
     * @param socket the lldpd's control socket
     * @param ifName the interface that left
     * @throws LabException when lldpd still lists it after {@value #WAIT_MS} ms, or lldpcli fails until then
     */
    static void awaitGone(Path socket, String ifName) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (true) {
            String why;
            try {
                if (!interfaces(socket).contains(ifName)) {
                    return;
                }
                why = "still lists " + ifName;
            } catch (LabException e) {
                // lldpcli may fail while lldpd drops the port it was asking about: ask again
                why = e.getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new LabException("the lldpd at " + socket + " " + WAIT_MS / 1000 + " s after " + ifName + " left: " + why);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while waiting for the lldpd at " + socket);
            }
        }
    }

    /** @return the interfaces an lldpd works on ({@code lldpcli show interfaces}) */
    static List<String> interfaces(Path socket) {
        String out = Ip.output(find("lldpcli", searchPath()).map(Path::toString).orElse("lldpcli"), "-u", socket.toString(),
                "-f", "json0", "show", "interfaces");
        List<String> names = new ArrayList<>();
        try {
            for (JsonNode lldp : new ObjectMapper().readTree(out).path("lldp")) {
                lldp.path("interface").forEach(i -> names.add(i.path("name").asText()));
            }
        } catch (IOException e) {
            throw new LabException("lldpcli show interfaces of " + socket + " printed no JSON: " + e.getMessage());
        }
        return names;
    }

    /** Removes a control socket and its lock file ({@code SOCKET.lock}), if there. */
    private static void removeSocket(Path socket) throws IOException {
        Files.deleteIfExists(socket);
        Files.deleteIfExists(Path.of(socket + ".lock"));
    }
}
