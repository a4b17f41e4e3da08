package io.railmap.daemon.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.Utf8;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a {@link ProbeDatagram} into the bytes of one UDP datagram and back. The specification is
 * {@code daemon/PROBE.md}, "Wire format": the header, the append-only message types, the hello's
 * keys and their rules, and what a receiver drops in which order; a change to the bytes changes that
 * page first.
 *
 * <p>Errors: {@link #decode(byte[], Optional)} refuses a datagram with the first rule broken, in the
 * order of PROBE.md's table, as a {@link DropReason}; no JSON is parsed before a tag verifies.
 *
 * <p>Threads: stateless and thread-safe.
 */
public final class ProbeCodec {
    /** The four bytes every railmap probe datagram starts with: ASCII {@code RMAP}. */
    public static final byte[] MAGIC = {'R', 'M', 'A', 'P'};
    /** The protocol version this codec writes. */
    public static final int VERSION = 2;
    /** The oldest protocol version this codec reads. */
    public static final int MIN_VERSION = 1;
    /** Message type 1: a {@link ProbeDatagram hello} (or, with TTL 0, a goodbye). */
    public static final int TYPE_HELLO = 1;
    /** Message type 2 (since v2): a hello followed by its {@link ProbeKey} tag. */
    public static final int TYPE_AUTHENTICATED_HELLO = 2;
    /** Header length in bytes. */
    public static final int HEADER_BYTES = 8;
    /** Longest datagram, header included, in bytes. */
    public static final int MAX_DATAGRAM_BYTES = 1024;

    private static final Set<String> HELLO_KEYS_V1 =
            Set.of("cluster", "node", "port", "rdma", "mac", "incarnation", "management", "ttlMs");
    private static final Set<String> HELLO_KEYS_V2 =
            Set.of("cluster", "node", "port", "rdma", "mac", "incarnation", "seq", "management", "ttlMs");

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ProbeCodec() {
    }

    /**
     * Encodes a hello in the current version.
     *
     * @param hello the datagram to send; its {@code seq} must be ≥ 1
     * @param key   the probe key: present, an authenticated hello (type 2); empty, a plain one (type 1)
     * @return header, body and tag, at most {@value #MAX_DATAGRAM_BYTES} bytes (the field limits of
     *         {@link ProbeDatagram} keep the worst case under 1000)
     * @throws IllegalArgumentException when {@code seq} is 0 (only version-1 hellos had none)
     */
    public static byte[] encode(ProbeDatagram hello, Optional<ProbeKey> key) {
        if (hello.seq() < 1) {
            throw new IllegalArgumentException("a version-" + VERSION + " hello needs a sequence number of at least 1");
        }
        ObjectNode body = MAPPER.createObjectNode();
        body.put("cluster", hello.cluster());
        body.put("node", hello.node());
        body.put("port", hello.port());
        hello.rdma().ifPresent(r -> body.put("rdma", r));
        body.put("mac", hello.mac());
        body.put("incarnation", hello.incarnation());
        body.put("seq", hello.seq());
        body.put("management", hello.management());
        body.put("ttlMs", hello.ttlMs());
        byte[] json;
        try {
            json = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree of strings and numbers did not serialise", e);
        }
        int tagBytes = key.isPresent() ? ProbeKey.TAG_BYTES : 0;
        int length = HEADER_BYTES + json.length + tagBytes;
        if (length > MAX_DATAGRAM_BYTES) {
            throw new IllegalStateException("hello of " + length + " bytes exceeds " + MAX_DATAGRAM_BYTES
                    + "; the field limits should prevent this");
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        out.put(MAGIC).put((byte) VERSION).put((byte) (key.isPresent() ? TYPE_AUTHENTICATED_HELLO : TYPE_HELLO))
                .putShort((short) (json.length + tagBytes)).put(json);
        key.ifPresent(k -> out.put(k.tag(out.array(), 0, HEADER_BYTES + json.length)));
        return out.array();
    }

    /**
     * Decodes one datagram.
     *
     * @param datagram the bytes received, exactly the datagram (not a larger buffer)
     * @param key      this daemon's probe key: present, only authenticated hellos with a valid tag
     *                 are accepted; empty, only plain ones
     * @return the hello it carries ({@code seq} 0 for a version-1 hello)
     * @throws ProbeFormatException when the datagram breaks any rule of the format or is not
     *                              authenticated as {@code key} requires, with the first rule broken
     *                              as its {@link ProbeFormatException#reason()}
     */
    public static ProbeDatagram decode(byte[] datagram, Optional<ProbeKey> key) throws ProbeFormatException {
        if (datagram.length > MAX_DATAGRAM_BYTES) {
            throw new ProbeFormatException(DropReason.OVERSIZE,
                    datagram.length + " bytes, over " + MAX_DATAGRAM_BYTES);
        }
        if (datagram.length < HEADER_BYTES) {
            throw new ProbeFormatException(DropReason.TRUNCATED,
                    datagram.length + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (datagram[i] != MAGIC[i]) {
                throw new ProbeFormatException(DropReason.MAGIC, "does not start with \"RMAP\"");
            }
        }
        int version = datagram[4] & 0xFF;
        if (version < MIN_VERSION || version > VERSION) {
            throw new ProbeFormatException(DropReason.VERSION,
                    "version " + version + ", this daemon reads " + MIN_VERSION + ".." + VERSION);
        }
        int type = datagram[5] & 0xFF;
        boolean authenticated = type == TYPE_AUTHENTICATED_HELLO && version >= 2;
        if (type != TYPE_HELLO && !authenticated) {
            throw new ProbeFormatException(DropReason.TYPE, "message type " + type + " is not defined in version " + version);
        }
        int bodyLength = ((datagram[6] & 0xFF) << 8) | (datagram[7] & 0xFF);
        int actual = datagram.length - HEADER_BYTES;
        if (actual < bodyLength) {
            throw new ProbeFormatException(DropReason.TRUNCATED,
                    "body declares " + bodyLength + " bytes, " + actual + " arrived");
        }
        if (actual > bodyLength) {
            throw new ProbeFormatException(DropReason.LENGTH,
                    (actual - bodyLength) + " bytes after the declared " + bodyLength + "-byte body");
        }
        int jsonLength = bodyLength;
        if (authenticated) {
            if (key.isEmpty()) {
                throw new ProbeFormatException(DropReason.NO_KEY, "an authenticated hello, but this daemon has no cluster key");
            }
            if (bodyLength < ProbeKey.TAG_BYTES) {
                throw new ProbeFormatException(DropReason.TRUNCATED,
                        "body of " + bodyLength + " bytes cannot hold the " + ProbeKey.TAG_BYTES + "-byte tag");
            }
            jsonLength = bodyLength - ProbeKey.TAG_BYTES;
            if (!key.get().verify(datagram, 0, HEADER_BYTES + jsonLength, datagram, HEADER_BYTES + jsonLength)) {
                throw new ProbeFormatException(DropReason.BAD_TAG, "the tag does not verify: another key, or changed bytes");
            }
        } else if (key.isPresent()) {
            throw new ProbeFormatException(DropReason.UNAUTHENTICATED, "a hello without a tag, but this daemon has a cluster key");
        }
        return hello(parseObject(datagram, jsonLength), version);
    }

    private static JsonNode parseObject(byte[] datagram, int jsonLength) throws ProbeFormatException {
        String text = Utf8.strict(datagram, HEADER_BYTES, jsonLength).orElse(null);
        if (text == null) {
            throw new ProbeFormatException(DropReason.BODY, "body is not UTF-8");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ProbeFormatException(DropReason.BODY, "body is not JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new ProbeFormatException(DropReason.BODY, "body is not a JSON object");
        }
        return tree;
    }

    private static ProbeDatagram hello(JsonNode body, int version) throws ProbeFormatException {
        Set<String> keys = version >= 2 ? HELLO_KEYS_V2 : HELLO_KEYS_V1;
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!keys.contains(name)) {
                throw new ProbeFormatException(DropReason.FIELD, "unknown key \"" + name + "\"");
            }
        }
        String cluster = string(body, "cluster");
        String node = string(body, "node");
        String port = string(body, "port");
        Optional<String> rdma = body.has("rdma") ? Optional.of(string(body, "rdma")) : Optional.empty();
        String mac = string(body, "mac");
        long incarnation = integer(body, "incarnation", Long.MAX_VALUE);
        long seq = version >= 2 ? integer(body, "seq", Long.MAX_VALUE) : 0;
        if (version >= 2 && seq < 1) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"seq\" is 0, outside 1.." + Long.MAX_VALUE);
        }
        String management = string(body, "management");
        long ttlMs = integer(body, "ttlMs", ProbeDatagram.MAX_TTL_MS);
        try {
            return new ProbeDatagram(cluster, node, port, rdma, mac, incarnation, seq, management, ttlMs);
        } catch (IllegalArgumentException e) {
            throw new ProbeFormatException(DropReason.FIELD, e.getMessage());
        }
    }

    private static String string(JsonNode body, String key) throws ProbeFormatException {
        JsonNode value = body.get(key);
        if (value == null) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"" + key + "\" is missing");
        }
        if (!value.isTextual()) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"" + key + "\" is " + value.getNodeType() + ", not a string");
        }
        return value.textValue();
    }

    private static long integer(JsonNode body, String key, long max) throws ProbeFormatException {
        JsonNode value = body.get(key);
        if (value == null) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"" + key + "\" is missing");
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"" + key + "\" is not an integer in 0.." + max);
        }
        long n = value.longValue();
        if (n < 0 || n > max) {
            throw new ProbeFormatException(DropReason.FIELD, "key \"" + key + "\" is " + n + ", outside 0.." + max);
        }
        return n;
    }
}
