package io.railmap.lab;

import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * ssh into a lab's nodes, as launchers such as {@code mlx.launch} start ranks: one OpenSSH sshd per
 * node namespace on the node's management address, port 22, and an ssh client that runs in the
 * management namespace (the root namespace has no route to the management network) through the
 * shim {@code <dir>/bin/ssh}, with the lab's own keys, known hosts and configuration.
 *
 * <p>Files, all under the lab's state directory, so nothing reads or writes the user's
 * {@code ~/.ssh}: {@code ssh/} (mode 0700) holds one ed25519 host key for every node, a client key,
 * {@code authorized_keys} (the client key, {@code restrict,pty}), {@code known_hosts} (the host key
 * under every node name and management address), {@code ssh_config} (the client's) and
 * {@code sshd_config-<node>}; each sshd's pid file is {@code ssh/sshd-<node>.pid}, its log
 * {@code sshd-<node>.log}. sshd runs as {@code sshd -D -e -f CONFIG} (foreground, log to standard
 * error), spawned like the daemons.
 *
 * <p>Errors: every method that makes or starts something throws {@link LabException} naming what
 * failed. Source: OpenSSH 9.2p1 (Debian 12's {@value #PACKAGE}), {@code sshd.c} {@code main}
 * (the pid file is written once the listening sockets are bound), {@code auth.c}
 * {@code allowed_user} and {@code platform.c} {@code platform_locked_account} (without PAM, an
 * account whose password field starts with {@code !} may not log in, not even with a key).
 */
public final class LabSsh {
    /** The Debian package that holds sshd. */
    public static final String PACKAGE = "openssh-server";
    /** The port each sshd listens on. */
    public static final int PORT = 22;
    /** How long sshd may take to bind its address and write its pid file, in ms. */
    public static final long WAIT_MS = 10_000;
    /** sshd's privilege separation directory on Debian; sshd refuses to start without it. */
    static final Path PRIVSEP_DIR = Path.of("/run/sshd");
    /** Characters a path may hold to stand unquoted in ssh_config, sshd_config (no %-tokens, no spaces) and PATH (no ':'). */
    private static final Pattern PLAIN_PATH = Pattern.compile("/[A-Za-z0-9._+/-]*");
    /** A name that is one ssh host pattern and one known_hosts name as it is (no wildcard, no leading '-'). */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");

    /** Whether {@code lab up} runs sshd. */
    public enum Mode {
        /** When sshd is installed and the lab can run it; else the lab comes up without, saying why. */
        AUTO,
        /** Always: the lab does not come up without it. */
        ON,
        /** Never. */
        OFF
    }

    private final Path lab;
    private final LabNames names;

    /**
     * @param lab   the lab's state directory (made absolute)
     * @param names the lab's names
     */
    public LabSsh(Path lab, LabNames names) {
        this.lab = lab.toAbsolutePath().normalize();
        this.names = names;
    }

    /** @return {@code <dir>/ssh}, where keys and configurations go */
    public Path dir() {
        return lab.resolve("ssh");
    }

    /** @return {@code <dir>/bin}, which holds the shim: the directory {@code railmap lab env} puts first on PATH */
    public Path bin() {
        return lab.resolve("bin");
    }

    /** @return the client shim {@code <dir>/bin/ssh} */
    public Path shim() {
        return bin().resolve("ssh");
    }

    /** @return the client's configuration */
    public Path clientConfig() {
        return dir().resolve("ssh_config");
    }

    /** @return sshd's log for a node */
    public Path log(String node) {
        return lab.resolve("sshd-" + node + ".log");
    }

    private Path pidFile(String node) {
        return dir().resolve("sshd-" + node + ".pid");
    }

    private Path serverConfig(String node) {
        return dir().resolve("sshd_config-" + node);
    }

    private Path hostKey() {
        return dir().resolve("host_ed25519_key");
    }

    private Path clientKey() {
        return dir().resolve("client_ed25519_key");
    }

    /** @return where programs are looked for: {@code PATH} without the lab's own {@code bin}, then {@code /usr/sbin} and {@code /sbin} */
    private String searchPath() {
        String own = bin().toString();
        return Stream.of(Lldpd.searchPath().split(":")).filter(d -> !d.isEmpty() && !Path.of(d).toAbsolutePath().normalize().toString().equals(own))
                .collect(Collectors.joining(":"));
    }

    /**
     * Says why this lab cannot run ssh, checking nothing it would have to make.
     *
     * @param topology the lab's topology
     * @param user     the user the client logs in as (the one running the lab)
     * @return the reason, naming what to do; empty when it can
     */
    public Optional<String> unavailable(LabTopology topology, String user) {
        if (!PLAIN_PATH.matcher(lab.toString()).matches()) {
            return Optional.of("the lab directory " + Names.escape(lab.toString(), 256) + " holds characters ssh's configuration files or PATH "
                    + "would read otherwise (only letters, digits and . _ + - / are taken): set RAILMAP_LAB_DIR to a plainer directory");
        }
        for (String node : topology.nodes()) {
            if (!HOST_NAME.matcher(node).matches()) {
                return Optional.of("node name \"" + Names.escape(node) + "\" cannot be an ssh host name as it is (only letters, digits, '.', "
                        + "'_' and '-', not first '-' or '.'): rename the node in the topology file");
            }
        }
        String path = searchPath();
        if (Lldpd.find("sshd", path).isEmpty()) {
            return Optional.of("sshd is not installed here (looked in " + path + "): install it (Debian/Ubuntu: apt-get install " + PACKAGE + ")");
        }
        for (String program : List.of("ssh", "ssh-keygen")) {
            if (Lldpd.find(program, path).isEmpty()) {
                return Optional.of(program + " is not installed here (looked in " + path + "): install it (Debian/Ubuntu: apt-get install openssh-client)");
            }
        }
        return lockedAccount(user, Path.of("/etc/shadow"));
    }

    /**
     * sshd without PAM refuses an account whose password field starts with {@code !} (OpenSSH's
     * {@code LOCKED_PASSWD_PREFIX} on Linux), key or not.
     *
     * @param shadow the shadow password file; unreadable or absent: nothing is known, nothing said
     * @return why the user cannot log in, or empty
     */
    static Optional<String> lockedAccount(String user, Path shadow) {
        try {
            for (String line : Files.readAllLines(shadow)) {
                String[] fields = line.split(":", 3);
                if (fields.length >= 2 && fields[0].equals(user) && fields[1].startsWith("!")) {
                    return Optional.of("the account " + Names.escape(user) + " is locked (its password field in " + shadow + " starts with '!'),"
                            + " and sshd without PAM lets no locked account log in, not even with a key: unlock it without a password "
                            + "(usermod -p '*' " + Names.escape(user) + ")");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not readable here: sshd will say so in its log if it refuses
        }
        return Optional.empty();
    }

    /**
     * Makes the keys, {@code authorized_keys}, {@code known_hosts}, every node's sshd configuration,
     * the client's configuration and the shim, and {@link #PRIVSEP_DIR} when it is missing.
     *
     * @param topology the lab's topology (its nodes, in order: node i at {@link LabNames#mgmtAddress}(i))
     * @param user     the user the client logs in as
     * @throws LabException when a file cannot be written or ssh-keygen fails
     */
    public void make(LabTopology topology, String user) {
        String keygen = Lldpd.find("ssh-keygen", searchPath()).map(Path::toString).orElse("ssh-keygen");
        try {
            Files.createDirectories(lab);
            Files.createDirectory(dir(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Ip.run(keygen, "-q", "-t", "ed25519", "-N", "", "-C", "railmap lab " + names.prefix() + " host", "-f", hostKey().toString());
            Ip.run(keygen, "-q", "-t", "ed25519", "-N", "", "-C", "railmap lab " + names.prefix() + " client", "-f", clientKey().toString());
            Files.writeString(dir().resolve("authorized_keys"), authorizedKeys(publicKey(clientKey())));
            Files.writeString(dir().resolve("known_hosts"), knownHosts(addresses(topology), publicKey(hostKey())));
            for (int i = 0; i < topology.nodes().size(); i++) {
                String node = topology.nodes().get(i);
                Files.writeString(serverConfig(node), serverConfig(node, LabNames.mgmtAddress(i), user));
            }
            Files.writeString(clientConfig(), clientConfig(addresses(topology), user));
            Files.createDirectories(bin());
            Files.writeString(shim(), shim(Lldpd.find("ip", searchPath()).map(Path::toString).orElse("ip"),
                    Lldpd.find("ssh", searchPath()).map(Path::toString).orElse("ssh")));
            Files.setPosixFilePermissions(shim(), PosixFilePermissions.fromString("rwxr-xr-x"));
            if (!Files.isDirectory(PRIVSEP_DIR)) {
                Files.createDirectories(PRIVSEP_DIR);
                Files.setPosixFilePermissions(PRIVSEP_DIR, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new LabException("cannot make the lab's ssh files in " + dir() + ": " + e.getMessage());
        }
    }

    /** @return node → management address, in the topology's order */
    private static Map<String, String> addresses(LabTopology topology) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < topology.nodes().size(); i++) {
            out.put(topology.nodes().get(i), LabNames.mgmtAddress(i));
        }
        return out;
    }

    /** @return the key type and base64 of a key pair's {@code .pub}, without its comment */
    private static String publicKey(Path key) throws IOException {
        String[] fields = Files.readString(Path.of(key + ".pub")).trim().split("\\s+");
        if (fields.length < 2) {
            throw new LabException("ssh-keygen wrote no public key to " + key + ".pub");
        }
        return fields[0] + " " + fields[1];
    }

    /** @return the one line of {@code authorized_keys}: the client key, with nothing but a pty allowed (sshd(8) AUTHORIZED_KEYS FILE FORMAT) */
    static String authorizedKeys(String clientKey) {
        return "restrict,pty " + clientKey + " railmap lab client\n";
    }

    /** @return one {@code known_hosts} line per node: its name and management address, then the lab's host key (sshd(8) SSH_KNOWN_HOSTS FILE FORMAT) */
    static String knownHosts(Map<String, String> addresses, String hostKey) {
        StringBuilder out = new StringBuilder();
        addresses.forEach((node, address) -> out.append(node).append(',').append(address).append(' ').append(hostKey).append('\n'));
        return out.toString();
    }

    /**
     * @return one node's sshd_config(5): its management address only, the lab's host key and
     *         authorized keys, public key authentication of {@code user} only, no forwarding, no
     *         user rc file, and {@code StrictModes no} (a lab directory may sit under {@code /tmp},
     *         mode 1777, which the strict check refuses; the lab's {@code ssh/} is 0700 and root's)
     */
    String serverConfig(String node, String address, String user) {
        return "# sshd of node " + node + " of lab " + names.prefix() + " (railmap lab up); ended by railmap lab down\n"
                + "ListenAddress " + address + ":" + PORT + "\n"
                + "HostKey " + hostKey() + "\n"
                + "AuthorizedKeysFile " + dir().resolve("authorized_keys") + "\n"
                + "PidFile " + pidFile(node) + "\n"
                + "AllowUsers " + user + "\n"
                + "PermitRootLogin prohibit-password\n"
                + "PubkeyAuthentication yes\n"
                + "PasswordAuthentication no\n"
                + "KbdInteractiveAuthentication no\n"
                + "UsePAM no\n"
                + "StrictModes no\n"
                + "PermitUserRC no\n"
                + "PermitUserEnvironment no\n"
                + "X11Forwarding no\n"
                + "AllowAgentForwarding no\n"
                + "AllowTcpForwarding no\n"
                + "AllowStreamLocalForwarding no\n"
                + "PermitTunnel no\n"
                + "PrintMotd no\n"
                + "PrintLastLog no\n";
    }

    /**
     * @return the client's ssh_config(5): each node reached by its name or management address, and
     *         for every host only the lab's key and known hosts (so no connection through the shim
     *         reads the user's {@code ~/.ssh}), host keys checked strictly, never a prompt
     */
    String clientConfig(Map<String, String> addresses, String user) {
        StringBuilder out = new StringBuilder("# ssh client of lab " + names.prefix() + " (railmap lab up), used by " + shim() + "\n");
        addresses.forEach((node, address) -> out.append("Host ").append(node).append(' ').append(address).append("\n    HostName ")
                .append(address).append('\n'));
        return out.append("Host *\n")
                .append("    User ").append(user).append('\n')
                .append("    Port ").append(PORT).append('\n')
                .append("    IdentityFile ").append(clientKey()).append('\n')
                .append("    IdentitiesOnly yes\n")
                .append("    IdentityAgent none\n")
                .append("    UserKnownHostsFile ").append(dir().resolve("known_hosts")).append('\n')
                .append("    GlobalKnownHostsFile /dev/null\n")
                .append("    StrictHostKeyChecking yes\n")
                .append("    UpdateHostKeys no\n")
                .append("    BatchMode yes\n")
                .append("    ConnectTimeout 5\n")
                .append("    ForwardAgent no\n")
                .append("    ForwardX11 no\n")
                .append("    ControlMaster no\n")
                .append("    ControlPath none\n")
                .toString();
    }

    /** @return the shim: the ssh client, run in the management namespace with the lab's configuration and the caller's arguments */
    String shim(String ip, String ssh) {
        return "#!/bin/sh\n"
                + "# ssh into the nodes of lab " + names.prefix() + " (railmap lab up; removed by railmap lab down): the client runs in the\n"
                + "# management namespace, which reaches every node's management address, with the lab's own keys and configuration.\n"
                + "exec " + quote(ip) + " netns exec " + quote(names.mgmtNamespace()) + " " + quote(ssh) + " -F " + quote(clientConfig().toString())
                + " \"$@\"\n";
    }

    /** @return the text as one word for sh: in single quotes, each inner quote closed, escaped and reopened */
    public static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /**
     * Starts every node's sshd in its namespace, then waits until each has bound its address (its
     * pid file holds its pid).
     *
     * @param topology the lab's topology
     * @return node → sshd pid, in the topology's order
     * @throws LabException when sshd cannot start, exits, or writes no pid file within {@value #WAIT_MS}
     *                      ms (with the end of its log)
     */
    public Map<String, Long> start(LabTopology topology) {
        String sshd = Lldpd.find("sshd", searchPath()).map(p -> p.toAbsolutePath().toString()).orElse("/usr/sbin/sshd");
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String node : topology.nodes()) {
            // sshd re-executes itself for every connection, so it must be started by its absolute path
            pids.put(node, Netns.spawn(names.nodeNamespace(node), List.of(sshd, "-D", "-e", "-f", serverConfig(node).toString()), log(node)));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            awaitListening(e.getKey(), e.getValue(), deadline);
        }
        return pids;
    }

    private void awaitListening(String node, long pid, long deadline) {
        while (!listening(node, pid)) {
            if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true) || System.nanoTime() > deadline) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                throw new LabException("the sshd of " + node + " did not listen on its management address within " + WAIT_MS / 1000
                        + " s (log " + log(node) + ": " + Netns.logTail(log(node)) + ")");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted while the sshd of " + node + " started");
            }
        }
    }

    /** @return true when the node's pid file names {@code pid}: sshd writes it once its listening socket is bound */
    private boolean listening(String node, long pid) {
        try {
            return Files.readString(pidFile(node)).trim().equals(Long.toString(pid));
        } catch (IOException e) {
            return false;
        }
    }
}
