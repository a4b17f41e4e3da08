package io.railmap.matrix.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A position in a parsed JSON document that knows its source and JSON path, so that every read can
 * fail with a {@link FormatException} saying exactly where and what. Shared by the codecs.
 */
final class JsonCursor {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String source;
    private final String path;
    private final JsonNode node;

    private JsonCursor(String source, String path, JsonNode node) {
        this.source = source;
        this.path = path;
        this.node = node;
    }

    /**
     * Parses a whole document.
     *
     * @throws FormatException when the text is not JSON, with the line and column of the problem
     */
    static JsonCursor parse(String source, String text) {
        try {
            JsonNode root = MAPPER.readTree(text);
            if (root == null || root.isMissingNode()) {
                throw new FormatException(source, "$", "the document is empty");
            }
            return new JsonCursor(source, "$", root);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")";
            throw new FormatException(source, "$", "not valid JSON" + where + ": " + e.getOriginalMessage());
        }
    }

    FormatException fail(String problem) {
        return new FormatException(source, path, problem);
    }

    String path() {
        return path;
    }

    boolean isNull() {
        return node.isNull();
    }

    boolean isString() {
        return node.isTextual();
    }

    boolean isArray() {
        return node.isArray();
    }

    /** Fails unless this is an object whose fields are all among {@code allowed}. */
    JsonCursor object(Set<String> allowed) {
        if (!node.isObject()) {
            throw fail("expected an object, found " + describe(node));
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new FormatException(source, path + "." + name,
                        "unknown field (expected only " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
        return this;
    }

    /** A required field. */
    JsonCursor field(String name) {
        JsonNode child = node.get(name);
        if (child == null) {
            throw fail("missing field \"" + name + "\"");
        }
        return new JsonCursor(source, path + "." + name, child);
    }

    /** A field that may be absent or null. */
    Optional<JsonCursor> optionalField(String name) {
        JsonNode child = node.get(name);
        if (child == null || child.isNull()) {
            return Optional.empty();
        }
        return Optional.of(new JsonCursor(source, path + "." + name, child));
    }

    List<JsonCursor> elements() {
        if (!node.isArray()) {
            throw fail("expected an array, found " + describe(node));
        }
        List<JsonCursor> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(new JsonCursor(source, path + "[" + i + "]", node.get(i)));
        }
        return out;
    }

    String string() {
        if (!node.isTextual()) {
            throw fail("expected a string, found " + describe(node));
        }
        return node.textValue();
    }

    long integer() {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw fail("expected a whole number, found " + describe(node));
        }
        return node.longValue();
    }

    /** A whole number that fits in an {@code int}. */
    int smallInteger() {
        long value = integer();
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw fail("the number " + value + " is out of range");
        }
        return (int) value;
    }

    double number() {
        if (!node.isNumber()) {
            throw fail("expected a number, found " + describe(node));
        }
        return node.doubleValue();
    }

    boolean bool() {
        if (!node.isBoolean()) {
            throw fail("expected true or false, found " + describe(node));
        }
        return node.booleanValue();
    }

    /**
     * Applies a domain constructor or parser and turns its {@link IllegalArgumentException} into a
     * {@link FormatException} at this path.
     */
    <T> T as(Function<JsonCursor, T> reader) {
        try {
            return reader.apply(this);
        } catch (IllegalArgumentException e) {
            if (e instanceof FormatException) {
                throw e;
            }
            throw fail(e.getMessage());
        }
    }

    private static String describe(JsonNode n) {
        if (n.isNull()) {
            return "null";
        }
        if (n.isTextual()) {
            return "the string " + n.toString();
        }
        if (n.isNumber()) {
            return "the number " + n.toString();
        }
        if (n.isBoolean()) {
            return n.asText();
        }
        return n.isArray() ? "an array" : "an object";
    }
}
