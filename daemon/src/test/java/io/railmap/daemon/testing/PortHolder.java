package io.railmap.daemon.testing;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Another program holding a port, inside a network namespace: a JVM that binds a TCP or UDP port
 * without sharing it (no {@code SO_REUSEADDR} on UDP), says so, and holds it until closed.
 */
public final class PortHolder implements AutoCloseable {
    private final Process process;

    private PortHolder(Process process) {
        this.process = process;
    }

    /**
     * @param lab  the lab holding the namespace
     * @param ns   the namespace
     * @param log  where the holder's standard error goes
     * @param spec {@code tcp ADDR PORT} or {@code udp PORT} (on every address)
     * @return the holder, once the port is bound
     * @throws IOException when it could not bind within 20 s
     */
    public static PortHolder hold(NetnsLab lab, String ns, Path log, String... spec) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1",
                "-cp", classPath, PortHolder.class.getName()));
        command.addAll(List.of(spec));
        PortHolder holder = new PortHolder(lab.start(ns, command, log));
        byte[] line = holder.process.getInputStream().readNBytes("held\n".length());
        if (!new String(line, StandardCharsets.US_ASCII).equals("held\n")) {
            holder.close();
            throw new IOException("the port holder did not bind " + String.join(" ", spec) + " (see " + log + ")");
        }
        return holder;
    }

    /** Binds as told, prints {@code held}, and holds until standard input closes. */
    public static void main(String[] args) throws IOException {
        Closeable held;
        if (args[0].equals("tcp")) {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])));
            held = s;
        } else {
            DatagramSocket s = new DatagramSocket(null);
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(Integer.parseInt(args[1])));
            held = s;
        }
        System.out.print("held\n");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold
        }
        held.close();
    }

    /** Ends the holder (its port is free again). */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
