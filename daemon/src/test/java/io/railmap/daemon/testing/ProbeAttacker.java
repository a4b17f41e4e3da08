package io.railmap.daemon.testing;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A hostile process for the attack suites, run inside a lab namespace (as root, or as an
 * unprivileged user through {@code setpriv}). It uses nothing but the JDK, so that its one class
 * file can be copied to a directory any user can read. Modes:
 * <pre>
 * send    IFACE ROUNDS GAP_MS FILE...   send each file's bytes to the probe group on IFACE, ROUNDS times,
 *                                       GAP_MS apart, with multicast loopback on (so this machine's own
 *                                       sockets get a copy too)
 * capture IFACE SECONDS MAX OUTDIR      join the probe group on IFACE and write up to MAX datagrams heard
 *                                       within SECONDS to OUTDIR/NNNNN.bin
 * flood   IFACE COUNT TEMPLATE          send COUNT plain version-2 hellos whose JSON body is TEMPLATE with
 *                                       every "%d" replaced by the hello's number (distinct far ends)
 * </pre>
 * Every mode ends by itself: ROUNDS, SECONDS and COUNT bound it.
 */
public final class ProbeAttacker {
    private static final String GROUP = "ff02::7261:696c";
    private static final int PORT = 7245;

    private ProbeAttacker() {
    }

    /** @param args the mode and its arguments (above) */
    public static void main(String[] args) throws Exception {
        NetworkInterface nif = NetworkInterface.getByName(args[1]);
        if (nif == null) {
            throw new IllegalArgumentException("no interface " + args[1]);
        }
        switch (args[0]) {
            case "send" -> send(nif, Integer.parseInt(args[2]), Long.parseLong(args[3]), files(args, 4));
            case "capture" -> capture(nif, Integer.parseInt(args[2]), Integer.parseInt(args[3]), Path.of(args[4]));
            case "flood" -> flood(nif, Integer.parseInt(args[2]), Files.readString(Path.of(args[3])));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static List<byte[]> files(String[] args, int from) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (int i = from; i < args.length; i++) {
            out.add(Files.readAllBytes(Path.of(args[i])));
        }
        return out;
    }

    private static MulticastSocket sender(NetworkInterface nif) throws IOException {
        MulticastSocket socket = new MulticastSocket();
        socket.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
        socket.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
        return socket;
    }

    private static InetAddress group(NetworkInterface nif) throws IOException {
        return Inet6Address.getByAddress(null, InetAddress.getByName(GROUP).getAddress(), nif);
    }

    private static void send(NetworkInterface nif, int rounds, long gapMs, List<byte[]> datagrams) throws Exception {
        try (MulticastSocket socket = sender(nif)) {
            InetAddress group = group(nif);
            for (int r = 0; r < rounds; r++) {
                for (byte[] d : datagrams) {
                    socket.send(new DatagramPacket(d, d.length, group, PORT));
                }
                Thread.sleep(gapMs);
            }
        }
    }

    private static void capture(NetworkInterface nif, int seconds, int max, Path out) throws IOException {
        Files.createDirectories(out);
        try (MulticastSocket socket = new MulticastSocket(PORT)) {
            socket.joinGroup(new InetSocketAddress(InetAddress.getByName(GROUP), 0), nif);
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            byte[] buffer = new byte[2048];
            int n = 0;
            while (n < max && System.nanoTime() < end) {
                socket.setSoTimeout((int) Math.max(1, (end - System.nanoTime()) / 1_000_000));
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    break;
                }
                byte[] copy = new byte[packet.getLength()];
                System.arraycopy(packet.getData(), packet.getOffset(), copy, 0, copy.length);
                Files.write(out.resolve(String.format("%05d.bin", n++)), copy);
            }
        }
    }

    private static void flood(NetworkInterface nif, int count, String template) throws Exception {
        try (MulticastSocket socket = sender(nif)) {
            InetAddress group = group(nif);
            for (int i = 0; i < count; i++) {
                byte[] json = template.replace("%d", Integer.toString(i)).getBytes(StandardCharsets.UTF_8);
                byte[] d = ByteBuffer.allocate(8 + json.length).put(new byte[] {'R', 'M', 'A', 'P', 2, 1})
                        .putShort((short) json.length).put(json).array();
                socket.send(new DatagramPacket(d, d.length, group, PORT));
                if (i % 25 == 24) {
                    Thread.sleep(1); // let the receiver's socket buffer drain a little
                }
            }
        }
    }
}
