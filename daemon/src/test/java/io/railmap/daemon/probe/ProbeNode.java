package io.railmap.daemon.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A test main: one probe on the given ports, as a node of a lab, run inside a network namespace by
 * {@link ProbeNamespaceTest} (a JVM cannot enter a namespace per thread, so each node is a JVM).
 *
 * <p>Arguments: {@code <cluster> <node> <port,port,...> <ttl factor>}. Uses the intervals of
 * {@link ProbeTiming#LAB} with the TTL factor given. Watches
 * each port's carrier in sysfs (what discovery does in the daemon) and calls
 * {@code portUp}/{@code portDown}. Writes JSON lines to stdout:
 * {@code {"type":"event","kind":"found|restarted|lost","port":..,"far":..,"cause":..}} per
 * neighbour event, then {@code {"type":"table","ports":{..},"dropped":{..}}}; the table line also
 * after start and on the stdin command {@code dump}. The stdin command
 * {@code foreign <port> <cluster>} sends one hello claiming another cluster on that port. SIGTERM
 * closes Vert.x, which sends the goodbyes; so does the end of standard input, so that a node never
 * outlives the test that started it.
 */
public final class ProbeNode {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CARRIER_POLL_MS = 100;

    private final Vertx vertx;
    private final ProbeService probe;
    private final ProbeConfig config;
    private final List<String> ports;

    private ProbeNode(Vertx vertx, ProbeConfig config, List<String> ports) {
        this.vertx = vertx;
        this.config = config;
        this.ports = ports;
        this.probe = new ProbeService(config, new SimpleMeterRegistry());
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: ProbeNode <cluster> <node> <port,port,...> <ttl factor>");
            System.exit(2);
        }
        ProbeTiming lab = ProbeTiming.LAB;
        ProbeConfig config = ProbeConfig.defaults(args[0], args[1], System.currentTimeMillis(), "127.0.0.1:7246")
                .withTiming(new ProbeTiming(lab.intervalMs(), lab.fastIntervalMs(), lab.fastCount(), Double.parseDouble(args[3])));
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(2));
        ProbeNode node = new ProbeNode(vertx, config, List.of(args[2].split(",")));
        Runtime.getRuntime().addShutdownHook(new Thread(node::shutdown, "probe-node-shutdown"));
        node.probe.addListener(node::printEvent);
        vertx.deployVerticle(node.probe).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
        node.printTable();
        Thread watcher = new Thread(node::watchCarrier, "carrier-watch");
        watcher.setDaemon(true);
        watcher.start();
        node.readCommands();
        // Standard input closed: the test that started this node is gone, so this node goes too.
        System.exit(0);
    }

    private void shutdown() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("closing Vert.x: " + e);
        }
    }

    /** Polls each port's carrier; brings the port up in the probe while it has carrier, down when it loses it. */
    private void watchCarrier() {
        while (true) {
            for (String port : ports) {
                boolean carrier = carrier(port);
                boolean probed = probe.probedPorts().contains(port);
                if (carrier && !probed) {
                    await(probe.portUp(ProbePort.of(port)), port);
                } else if (!carrier && probed) {
                    await(probe.portDown(port), port);
                }
            }
            try {
                Thread.sleep(CARRIER_POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static boolean carrier(String port) {
        try {
            return Files.readString(Path.of("/sys/class/net", port, "carrier")).trim().equals("1");
        } catch (IOException e) {
            return false; // reading carrier of an interface that is administratively down fails
        }
    }

    private static void await(io.vertx.core.Future<Void> change, String port) {
        try {
            change.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("port " + port + ": " + e.getMessage() + " (will retry)");
        }
    }

    private void readCommands() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("dump")) {
                printTable();
            } else if (words[0].equals("foreign") && words.length == 3) {
                sendForeign(words[1], words[2]);
            }
        }
    }

    private void sendForeign(String port, String cluster) {
        ProbeDatagram hello = config.hello(port, Optional.empty(), "02:00:00:00:00:99").withCluster(cluster);
        DatagramSocket socket = vertx.createDatagramSocket(new DatagramSocketOptions()
                .setIpV6(true).setMulticastNetworkInterface(port).setLoopbackModeDisabled(false));
        socket.send(Buffer.buffer(Hellos.encode(hello)), config.udpPort(), config.group())
                .onComplete(ar -> {
                    socket.close();
                    ObjectNode line = JSON.createObjectNode().put("type", "foreign-sent").put("ok", ar.succeeded());
                    print(line);
                });
    }

    private void printEvent(NeighbourEvent event) {
        ObjectNode line = JSON.createObjectNode().put("type", "event").put("port", event.port())
                .put("far", event.farEnd().toString());
        if (event instanceof NeighbourEvent.Found) {
            line.put("kind", "found");
        } else if (event instanceof NeighbourEvent.Restarted) {
            line.put("kind", "restarted");
        } else if (event instanceof NeighbourEvent.Lost lost) {
            line.put("kind", "lost").put("cause", lost.cause().name());
        }
        print(line);
        printTable();
    }

    private void printTable() {
        ObjectNode line = JSON.createObjectNode().put("type", "table");
        ObjectNode table = line.putObject("ports");
        probe.neighbours().forEach((port, far) -> far.forEach(f -> table.withArray(port).add(f.toString())));
        ObjectNode dropped = line.putObject("dropped");
        for (DropReason reason : DropReason.values()) {
            dropped.put(reason.tag(), probe.metrics().droppedCount(reason));
        }
        print(line);
    }

    private static synchronized void print(ObjectNode line) {
        System.out.println(line);
        System.out.flush();
    }
}
