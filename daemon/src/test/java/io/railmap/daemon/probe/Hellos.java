package io.railmap.daemon.probe;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Hellos and hand-made datagrams for tests. */
final class Hellos {
    /** Every hello made here takes the next number, as a daemon's datagrams do. */
    private static final java.util.concurrent.atomic.AtomicLong SEQ = new java.util.concurrent.atomic.AtomicLong();

    private Hellos() {
    }

    /** A hello from {@code node:port} of cluster {@code lab}, incarnation 1, TTL 3500 ms. */
    static ProbeDatagram hello(String node, String port) {
        return new ProbeDatagram("lab", node, port, Optional.of("rdma_" + port), "02:00:00:00:00:01", 1,
                SEQ.incrementAndGet(), "10.0.0.2:7246", 3500);
    }

    /** The same hello with another incarnation and TTL. */
    static ProbeDatagram hello(String node, String port, long incarnation, long ttlMs) {
        return new ProbeDatagram("lab", node, port, Optional.empty(), "02:00:00:00:00:01", incarnation,
                SEQ.incrementAndGet(), "10.0.0.2:7246", ttlMs);
    }

    /** A plain (unauthenticated) hello in the current version. */
    static byte[] encode(ProbeDatagram hello) {
        return ProbeCodec.encode(hello, Optional.empty());
    }

    /** Decodes as a daemon without a cluster key does. */
    static ProbeDatagram decode(byte[] datagram) throws ProbeFormatException {
        return ProbeCodec.decode(datagram, Optional.empty());
    }

    /** A datagram with any header values and a body given as text. */
    static byte[] raw(byte[] magic, int version, int type, int declaredLength, String body) {
        byte[] json = body.getBytes(StandardCharsets.UTF_8);
        return raw(magic, version, type, declaredLength, json);
    }

    /** A datagram with any header values and body bytes. */
    static byte[] raw(byte[] magic, int version, int type, int declaredLength, byte[] body) {
        return ByteBuffer.allocate(magic.length + 4 + body.length)
                .put(magic).put((byte) version).put((byte) type).putShort((short) declaredLength).put(body).array();
    }

    /** A well-formed header around a body given as text. */
    static byte[] withBody(String body) {
        return raw(ProbeCodec.MAGIC, ProbeCodec.VERSION, ProbeCodec.TYPE_HELLO,
                body.getBytes(StandardCharsets.UTF_8).length, body);
    }

    /** A valid hello body with one key's JSON value replaced ({@code null} value text removes the key). */
    static String bodyWith(String key, String valueJson) {
        StringBuilder b = new StringBuilder("{");
        String[][] fields = {
            {"cluster", "\"lab\""}, {"node", "\"b\""}, {"port", "\"en7\""}, {"rdma", "\"rdma_en7\""},
            {"mac", "\"02:00:00:00:00:01\""}, {"incarnation", "7"}, {"seq", "1"}, {"management", "\"10.0.0.2:7246\""},
            {"ttlMs", "3500"},
        };
        for (String[] f : fields) {
            String value = f[0].equals(key) ? valueJson : f[1];
            if (value == null) {
                continue;
            }
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(f[0]).append("\":").append(value);
        }
        return b.append('}').toString();
    }
}
