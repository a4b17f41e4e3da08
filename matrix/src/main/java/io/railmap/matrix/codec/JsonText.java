package io.railmap.matrix.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/** Building and printing JSON trees and JSON records with railmap's one configured Jackson mapper. */
public final class JsonText {
    private JsonText() {
    }

    /** @return a new empty JSON object */
    public static ObjectNode object() {
        return JsonCursor.MAPPER.createObjectNode();
    }

    /** @return a new empty JSON array */
    public static ArrayNode array() {
        return JsonCursor.MAPPER.createArrayNode();
    }

    /** @return the tree as indented JSON, ending with a newline */
    public static String pretty(JsonNode tree) {
        try {
            return JsonCursor.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param value a record Jackson writes (its field order pinned by {@code @JsonPropertyOrder}), or a tree
     * @return it as indented JSON ending with a newline, byte for byte as {@link #pretty} writes the same tree
     */
    public static String write(Object value) {
        try {
            return JsonCursor.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param value a record Jackson writes, or a list of them
     * @return it as a JSON tree, for a caller that still builds one around it
     */
    public static JsonNode tree(Object value) {
        return JsonCursor.MAPPER.valueToTree(value);
    }

    /** @return the string as a JSON string literal, quotes included */
    public static String quote(String s) {
        try {
            return JsonCursor.MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
