package io.railmap.daemon.probe;

import io.railmap.daemon.testing.NetnsLab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ProbeNode} JVM running in a namespace of a {@link NetnsLab}, and what it printed. The
 * test that starts one must {@link #close()} it, which kills it by pid if it still runs.
 */
final class LabNode implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final List<JsonNode> lines = new CopyOnWriteArrayList<>();

    private LabNode(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::read, "lab-node-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a probe node: a JVM on this test's class path, in namespace {@code ns}.
     *
     * @param ports     the ports to probe, comma-separated
     * @param ttlFactor the TTL factor of its timing
     * @param log       where its standard error (its log) goes
     */
    static LabNode start(NetnsLab lab, String ns, String cluster, String node, String ports, double ttlFactor, Path log)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
                "-cp", classPath, ProbeNode.class.getName(), cluster, node, ports, Double.toString(ttlFactor));
        return new LabNode(node, lab.start(ns, command, log));
    }

    /** @return the node's name */
    String name() {
        return name;
    }

    /** @return the process id, which is the JVM's */
    long pid() {
        return process.pid();
    }

    /** @return true while the JVM runs */
    boolean alive() {
        return process.isAlive();
    }

    /** @return how many lines it printed so far, to look at later lines only */
    int mark() {
        return lines.size();
    }

    /** @return the far ends each port hears, as of its last table line; empty before the first */
    Map<String, List<String>> ports() {
        JsonNode table = lastTable();
        Map<String, List<String>> ports = new LinkedHashMap<>();
        if (table != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = table.get("ports").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> port = it.next();
                List<String> far = new ArrayList<>();
                port.getValue().forEach(f -> far.add(f.asText()));
                ports.put(port.getKey(), far);
            }
        }
        return ports;
    }

    /** @return how many datagrams it dropped for this reason, as of its last table line */
    long dropped(DropReason reason) {
        JsonNode table = lastTable();
        return table == null ? 0 : table.get("dropped").get(reason.tag()).asLong();
    }

    /** @return the neighbour events printed after a {@link #mark()}, as {@code "lost en6 b:en7 GOODBYE"} */
    List<String> eventsSince(int mark) {
        List<String> events = new ArrayList<>();
        for (JsonNode line : lines.subList(mark, lines.size())) {
            if (line.path("type").asText().equals("event")) {
                String cause = line.has("cause") ? " " + line.get("cause").asText() : "";
                events.add(line.get("kind").asText() + " " + line.get("port").asText() + " " + line.get("far").asText() + cause);
            }
        }
        return events;
    }

    /** Sends a command line to its standard input. */
    void command(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends SIGTERM and waits (at most 15 s) for the JVM to exit. */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + pid() + ") still runs 15 s after SIGTERM");
        }
    }

    /** Sends SIGKILL and waits (at most 15 s) for the JVM to exit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(15, TimeUnit.SECONDS);
    }

    /** Kills the JVM by pid if it still runs, and waits (at most 15 s) for it to exit. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private JsonNode lastTable() {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).path("type").asText().equals("table")) {
                return lines.get(i);
            }
        }
        return null;
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                try {
                    lines.add(JSON.readTree(line));
                } catch (JsonProcessingException e) {
                    System.err.println(name + " printed a line that is not JSON: " + line);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
