package io.railmap.daemon.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a {@link ProbeDatagram} into the bytes of one UDP datagram and back. Stateless and
 * thread-safe. The format is described for operators in {@code daemon/PROBE.md}; this is the
 * authoritative summary.
 *
 * <h2>Header (8 bytes, fixed for every version)</h2>
 * <pre>
 * offset  size  field
 * 0       4     magic, ASCII "RMAP" (0x52 0x4D 0x41 0x50)
 * 4       1     protocol version, unsigned; this codec writes {@value #VERSION} and reads
 *               {@value #MIN_VERSION}..{@value #VERSION}
 * 5       1     message type, unsigned; see below
 * 6       2     body length in bytes, unsigned big-endian; header + body is the whole datagram
 * 8       n     body
 * </pre>
 * A datagram is at most {@value #MAX_DATAGRAM_BYTES} bytes, header included.
 *
 * <h2>Message types (append-only)</h2>
 * Numbers are never reused or redefined. A change to a body's fields is a new protocol version.
 * <pre>
 * type  name   since  body
 * 0     -      -      reserved, never sent
 * 1     hello  v1     a JSON object, UTF-8, exactly these keys:
 *                       "cluster"     string   required
 *                       "node"        string   required
 *                       "port"        string   required (netdev)
 *                       "rdma"        string   optional (absent when the port has no RDMA device)
 *                       "mac"         string   required ("aa:bb:cc:dd:ee:ff")
 *                       "incarnation" integer  required, 0..2^63-1
 *                       "management"  string   required ("host:port" of the HTTP API)
 *                       "ttlMs"       integer  required, 0..600000; 0 is a goodbye
 * </pre>
 * Value rules are those of {@link ProbeDatagram}. A typical hello is about 200 bytes.
 *
 * <h2>Strictness</h2>
 * {@link #decode(byte[])} refuses, with the {@link DropReason} in brackets: more than
 * {@value #MAX_DATAGRAM_BYTES} bytes [OVERSIZE]; fewer than 8 bytes or than the declared body
 * [TRUNCATED]; another magic [MAGIC]; a version outside {@value #MIN_VERSION}..{@value #VERSION}
 * [VERSION]; a type the version does not define [TYPE]; bytes after the declared body [LENGTH];
 * a body that is not strict UTF-8, not JSON, not a single object, or repeats a key [BODY]; a
 * missing, unknown, null or ill-typed key, or a value out of range [FIELD]. The checks run in that
 * order, so the first problem names the reason.
 */
public final class ProbeCodec {
    /** The four bytes every railmap probe datagram starts with: ASCII {@code RMAP}. */
    public static final byte[] MAGIC = {'R', 'M', 'A', 'P'};
    /** The protocol version this codec writes. */
    public static final int VERSION = 1;
    /** The oldest protocol version this codec reads. */
    public static final int MIN_VERSION = 1;
    /** Message type 1: a {@link ProbeDatagram hello} (or, with TTL 0, a goodbye). */
    public static final int TYPE_HELLO = 1;
    /** Header length in bytes. */
    public static final int HEADER_BYTES = 8;
    /** Longest datagram, header included, in bytes. */
    public static final int MAX_DATAGRAM_BYTES = 1024;

    private static final Set<String> HELLO_KEYS =
            Set.of("cluster", "node", "port", "rdma", "mac", "incarnation", "management", "ttlMs");

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ProbeCodec() {
    }

    /**
     * Encodes a hello.
     *
     * @param hello the datagram to send
     * @return header and body, at most {@value #MAX_DATAGRAM_BYTES} bytes (the field limits of
     *         {@link ProbeDatagram} keep the worst case under 1000)
     */
    public static byte[] encode(ProbeDatagram hello) {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("cluster", hello.cluster());
        body.put("node", hello.node());
        body.put("port", hello.port());
        hello.rdma().ifPresent(r -> body.put("rdma", r));
        body.put("mac", hello.mac());
        body.put("incarnation", hello.incarnation());
        body.put("management", hello.management());
        body.put("ttlMs", hello.ttlMs());
        byte[] json;
        try {
            json = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree of strings and numbers did not serialise", e);
        }
        if (HEADER_BYTES + json.length > MAX_DATAGRAM_BYTES) {
            throw new IllegalStateException("hello of " + (HEADER_BYTES + json.length)
                    + " bytes exceeds " + MAX_DATAGRAM_BYTES + "; the field limits should prevent this");
        }
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + json.length);
        out.put(MAGIC).put((byte) VERSION).put((byte) TYPE_HELLO).putShort((short) json.length).put(json);
        return out.array();
    }

    /**
     * Decodes one datagram.
     *
     * @param datagram the bytes received, exactly the datagram (not a larger buffer)
     * @return the hello it carries
     * @throws ProbeFormatException when the datagram breaks any rule of the format, with the
     *                              first rule broken as its {@link ProbeFormatException#reason()}
     */
    public static ProbeDatagram decode(byte[] datagram) throws ProbeFormatException {
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
        if (type != TYPE_HELLO) {
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
        return hello(parseObject(datagram));
    }

    private static JsonNode parseObject(byte[] datagram) throws ProbeFormatException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(datagram, HEADER_BYTES, datagram.length - HEADER_BYTES))
                    .toString();
        } catch (CharacterCodingException e) {
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

    private static ProbeDatagram hello(JsonNode body) throws ProbeFormatException {
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!HELLO_KEYS.contains(name)) {
                throw new ProbeFormatException(DropReason.FIELD, "unknown key \"" + name + "\"");
            }
        }
        String cluster = string(body, "cluster");
        String node = string(body, "node");
        String port = string(body, "port");
        Optional<String> rdma = body.has("rdma") ? Optional.of(string(body, "rdma")) : Optional.empty();
        String mac = string(body, "mac");
        long incarnation = integer(body, "incarnation", Long.MAX_VALUE);
        String management = string(body, "management");
        long ttlMs = integer(body, "ttlMs", ProbeDatagram.MAX_TTL_MS);
        try {
            return new ProbeDatagram(cluster, node, port, rdma, mac, incarnation, management, ttlMs);
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
