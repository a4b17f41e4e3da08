package io.railmap.daemon.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.daemon.Railmapd;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real railmapd JVM (this test's class path, {@link Railmapd#main}) in a network namespace, with
 * its API on a Unix socket so the test reaches it from the host namespace. Ended by pid.
 */
public final class DaemonProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most of a log {@link #close} prints: its end. */
    private static final int LOG_PRINTED_CHARS = 20_000;
    private final Process process;
    private boolean closed;
    private final Path socket;
    private final Path log;
    private final Vertx vertx;
    private final WebClient client;
    private final NetnsLab lab;
    private final String ns;
    private final Path dir;
    private final String node;
    private final Class<?> main;
    private final String[] flags;
    private final List<String> jvmOptions;

    private DaemonProcess(Process process, Path socket, Path log, NetnsLab lab, String ns, Path dir, String node, Class<?> main,
                          String[] flags, List<String> jvmOptions) {
        this.process = process;
        this.socket = socket;
        this.log = log;
        this.vertx = Vertx.vertx();
        this.client = WebClient.create(vertx);
        this.lab = lab;
        this.ns = ns;
        this.dir = dir;
        this.node = node;
        this.main = main;
        this.flags = flags.clone();
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    /**
     * @param lab   the lab holding the namespace
     * @param ns    the namespace
     * @param dir   where the socket and the log go
     * @param node  the node name
     * @param flags further railmapd flags
     */
    public static DaemonProcess start(NetnsLab lab, String ns, Path dir, String node, String... flags) throws IOException {
        return start(List.of(), lab, ns, dir, node, Railmapd.class, flags);
    }

    /**
     * As {@link #start(NetnsLab, String, Path, String, String...)}, with another main class: a test
     * main that takes railmapd's flags, runs a daemon in its JVM and reads commands on standard input
     * ({@link #tell}).
     *
     * @param main the main class
     */
    public static DaemonProcess start(NetnsLab lab, String ns, Path dir, String node, Class<?> main, String... flags) throws IOException {
        return start(List.of(), lab, ns, dir, node, main, flags);
    }

    /**
     * As {@link #start(NetnsLab, String, Path, String, String...)}, with JVM options before the main
     * class (a test hook's system property, e.g. {@code -Drailmap.test.protocol=next}).
     */
    public static DaemonProcess start(List<String> jvmOptions, NetnsLab lab, String ns, Path dir, String node, String... flags)
            throws IOException {
        return start(jvmOptions, lab, ns, dir, node, Railmapd.class, flags);
    }

    private static DaemonProcess start(List<String> jvmOptions, NetnsLab lab, String ns, Path dir, String node, Class<?> main,
                                       String... flags) throws IOException {
        Path socket = dir.resolve(node + ".sock");
        Path log = dir.resolve(node + ".log");
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m", "-XX:+ExitOnOutOfMemoryError",
                "-Djava.util.logging.manager=io.railmap.daemon.Logs$Manager"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, main.getName(), "--node", node, "--api", "127.0.0.1:0",
                "--api-socket", socket.toString()));
        command.addAll(List.of(flags));
        Process p = lab.start(ns, command, log);
        return lab.own(new DaemonProcess(p, socket, log, lab, ns, dir, node, main, flags, jvmOptions));
    }

    /**
     * Ends this daemon if it still runs and starts it again, with the same flags and JVM options, in
     * the same namespace; its log goes on in the same file.
     *
     * @return the new process
     */
    public DaemonProcess restart() throws IOException {
        return restart(jvmOptions);
    }

    /**
     * As {@link #restart()}, with other JVM options (an upgrade, simulated by a test hook).
     *
     * @return the new process
     */
    public DaemonProcess restart(List<String> newJvmOptions) throws IOException {
        close();
        return start(newJvmOptions, lab, ns, dir, node, main, flags);
    }

    /**
     * Writes one line to the process's standard input (a command for a test main; railmapd reads none).
     *
     * @throws java.io.UncheckedIOException when the process no longer reads it
     */
    public void tell(String line) {
        try {
            java.io.OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot tell daemon " + node + " \"" + line + "\": " + e.getMessage(), e);
        }
    }

    /** @return the node name */
    public String node() {
        return node;
    }

    /** @return whether the process still runs */
    public boolean alive() {
        return process.isAlive();
    }

    /** @return the API's Unix socket */
    public Path socket() {
        return socket;
    }

    /** @return the exit code once the process has ended; empty while it runs */
    public java.util.OptionalInt exitCode() {
        return process.isAlive() ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(process.exitValue());
    }

    /** @return the daemon's pid */
    public long pid() {
        return process.pid();
    }

    /** @return the daemon's log so far */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * @param uri a request path such as {@code /v1/record}
     * @return the response
     * @throws IllegalStateException when the daemon does not answer within 5 s
     */
    public HttpResponse<Buffer> get(String uri) {
        try {
            return client.request(HttpMethod.GET, SocketAddress.domainSocketAddress(socket.toString()), uri)
                    .send().await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("daemon at " + socket + " did not answer " + uri + ": " + e.getMessage(), e);
        }
    }

    /** @return the daemon's own record */
    public NodeRecord record() {
        return SnapshotCodec.readRecord("GET /v1/record", get("/v1/record").bodyAsString());
    }

    /** @return every record the daemon holds */
    public Snapshot snapshot() {
        return SnapshotCodec.readSnapshot("GET /v1/snapshot", get("/v1/snapshot").bodyAsString());
    }

    /** @return {@code GET /v1/members} as a JSON tree */
    public JsonNode members() {
        try {
            return JSON.readTree(get("/v1/members").bodyAsString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("GET /v1/members of " + node + " is not JSON: " + e.getMessage(), e);
        }
    }

    /** @return the node names of {@code GET /v1/members}, in view order */
    public List<String> memberNodes() {
        List<String> nodes = new ArrayList<>();
        members().get("members").forEach(m -> nodes.add(m.get("node").asText()));
        return nodes;
    }

    /** Sends SIGSTOP: the process freezes with its sockets open, as a hung host would. */
    public void freeze() {
        io.railmap.lab.Ip.run("kill", "-STOP", Long.toString(process.pid()));
    }

    /** Sends SIGCONT to a frozen process; does nothing to one that ended. */
    public void thaw() {
        if (process.isAlive()) {
            io.railmap.lab.Ip.run("kill", "-CONT", Long.toString(process.pid()));
        }
    }

    /** Sends SIGTERM and waits up to 10 s for the process to end. */
    public void terminate() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends SIGKILL and waits for the process to end. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Ends the daemon if it still runs (SIGTERM, then SIGKILL after 5 s) and prints the end of its log
     * to standard error, where the test report keeps it; once, however often it is called (its lab
     * calls it too, {@link NetnsLab#own}).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            try {
                thaw();
            } catch (IllegalStateException ended) {
                // it ended between the check and the signal
            }
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            vertx.close();
            String text = log();
            System.err.println("---- log of daemon " + node + " (pid " + process.pid() + ")\n"
                    + (text.length() > LOG_PRINTED_CHARS ? "...\n" + text.substring(text.length() - LOG_PRINTED_CHARS) : text));
        }
    }
}
