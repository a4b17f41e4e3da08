package io.railmap.matrix.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A position in a parsed JSON document that knows its source and JSON path, so that every read can
 * fail with a {@link FormatException} saying exactly where and what. Shared by railmap's codecs and
 * by readers of other strict JSON inputs (the lab's topology file).
 */
public final class JsonCursor {
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
    public static JsonCursor parse(String source, String text) {
        try {
            JsonNode root = MAPPER.readTree(text);
            if (root == null || root.isMissingNode()) {
                throw new FormatException(source, "$", "the document is empty");
            }
            return new JsonCursor(source, "$", root);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")";
            throw new FormatException(source, "$", "not valid JSON" + where + ": " + Names.escape(e.getOriginalMessage(), 200));
        }
    }

    /** @return an error at this position with the given problem (for the caller to throw) */
    public FormatException fail(String problem) {
        return new FormatException(source, path, problem);
    }

    /** @return this position as a JSON path, {@code $} being the root */
    public String path() {
        return path;
    }

    /** @return the value here as compact JSON text */
    public String json() {
        return node.toString();
    }

    /** @return true when the value here is {@code null} */
    public boolean isNull() {
        return node.isNull();
    }

    /** @return true when the value here is a string */
    public boolean isString() {
        return node.isTextual();
    }

    /** @return true when the value here is an array */
    public boolean isArray() {
        return node.isArray();
    }

    /** @return true when the value here is an object */
    public boolean isObject() {
        return node.isObject();
    }

    /** @return true when the value here is an object with a field of that name (whose value may be null) */
    public boolean has(String name) {
        return node.isObject() && node.has(name);
    }

    /** @return what the value here is, for messages: {@code null}, {@code the string "x"}, {@code an array}, ... */
    public String describe() {
        return describe(node);
    }

    /** Fails unless this is an object whose fields are all among {@code allowed}. */
    public JsonCursor object(Set<String> allowed) {
        if (!node.isObject()) {
            throw fail("expected an object, found " + describe(node));
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new FormatException(source, path + "." + Names.escape(name),
                        "unknown field (expected only " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
        return this;
    }

    /**
     * For readers that skip what they do not know (a newer writer's additions).
     *
     * @param known the field names the reader knows
     * @return the JSON paths of this object's fields not among {@code known}, in document order, the
     *         names escaped for messages
     * @throws FormatException when the value here is not an object
     */
    public List<String> unknownFields(Set<String> known) {
        if (!node.isObject()) {
            throw fail("expected an object, found " + describe(node));
        }
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                unknown.add(path + "." + Names.escape(name, 64));
            }
        }
        return unknown;
    }

    /**
     * @return the fields of the object here, in document order, each with its path
     *         ({@code path["name"]}, the name escaped)
     * @throws FormatException when the value is not an object
     */
    public Map<String, JsonCursor> members() {
        if (!node.isObject()) {
            throw fail("expected an object, found " + describe(node));
        }
        Map<String, JsonCursor> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> f = fields.next();
            out.put(f.getKey(), new JsonCursor(source, path + "[\"" + Names.escape(f.getKey(), 64) + "\"]", f.getValue()));
        }
        return out;
    }

    /** A required field. */
    public JsonCursor field(String name) {
        JsonNode child = node.get(name);
        if (child == null) {
            throw fail("missing field \"" + name + "\"");
        }
        return new JsonCursor(source, path + "." + name, child);
    }

    /** A field that may be absent or null. */
    public Optional<JsonCursor> optionalField(String name) {
        JsonNode child = node.get(name);
        if (child == null || child.isNull()) {
            return Optional.empty();
        }
        return Optional.of(new JsonCursor(source, path + "." + name, child));
    }

    /**
     * @return the elements of the array here, each with its path
     * @throws FormatException when the value is not an array
     */
    public List<JsonCursor> elements() {
        if (!node.isArray()) {
            throw fail("expected an array, found " + describe(node));
        }
        List<JsonCursor> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(new JsonCursor(source, path + "[" + i + "]", node.get(i)));
        }
        return out;
    }

    /**
     * @return the string here
     * @throws FormatException when the value is not a string
     */
    public String string() {
        if (!node.isTextual()) {
            throw fail("expected a string, found " + describe(node));
        }
        return node.textValue();
    }

    /**
     * @return the whole number here
     * @throws FormatException when the value is not a whole number that fits in a {@code long}
     */
    public long integer() {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw fail("expected a whole number, found " + describe(node));
        }
        return node.longValue();
    }

    /** A whole number that fits in an {@code int}. */
    public int smallInteger() {
        long value = integer();
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw fail("the number " + value + " is out of range");
        }
        return (int) value;
    }

    /**
     * @return the number here
     * @throws FormatException when the value is not a number
     */
    public double number() {
        if (!node.isNumber()) {
            throw fail("expected a number, found " + describe(node));
        }
        return node.doubleValue();
    }

    /**
     * @return the boolean here
     * @throws FormatException when the value is not true or false
     */
    public boolean bool() {
        if (!node.isBoolean()) {
            throw fail("expected true or false, found " + describe(node));
        }
        return node.booleanValue();
    }

    /**
     * Applies a domain constructor or parser and turns its {@link IllegalArgumentException} into a
     * {@link FormatException} at this path.
     */
    public <T> T as(Function<JsonCursor, T> reader) {
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
            return "the string \"" + Names.escape(n.textValue()) + "\"";
        }
        if (n.isNumber()) {
            return "the number " + Names.escape(n.toString());
        }
        if (n.isBoolean()) {
            return n.asText();
        }
        return n.isArray() ? "an array" : "an object";
    }
}
