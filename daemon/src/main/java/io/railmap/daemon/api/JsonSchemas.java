package io.railmap.daemon.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.Nullable;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of the records Jackson writes as answers: the
 * daemon's {@link Replies} and the core's own JSON ({@code PlanJson}, {@code PlanJson.CheckJson},
 * {@code RailTableJson}, {@code NodeEnvJson}, {@code FindingJson}), by a walk over their components: the same types Jackson
 * writes, so a schema cannot drift from an answer.
 *
 * <p>What it knows: {@link String}; {@code long}, {@code int} and their boxes ({@code integer});
 * {@code double} and {@link Double} ({@code number}); {@code boolean}; an enum ({@code string} with the
 * constants as Jackson writes them, their {@code @JsonValue}: the external names); {@link List} of any of
 * these, lists of lists included; a {@link Map} with {@link String} keys (an {@code object} whose keys are data,
 * such as a library's variables, each value of the map's value type); a nested record (a {@code $ref} to its
 * own entry). A boxed number or a {@link Nullable} component may be {@code null}; a component marked {@code @JsonInclude(NON_NULL)} may be
 * absent, every other one is required. Items of a list are never null. Properties are listed in
 * {@link JsonPropertyOrder}'s order, and no others are allowed.
 *
 * <p>Errors: an {@link IllegalArgumentException} naming the record and component of any other type (a
 * reply record must stay within these, or this walk must learn the new type).
 */
final class JsonSchemas {
    /** Where the document keeps named schemas; a {@code $ref} points below it. */
    static final String REF_PREFIX = "#/components/schemas/";

    private JsonSchemas() {
    }

    /**
     * @param record     a record class
     * @param components the named schemas so far, by simple class name: this record's and every record's
     *                   it holds are added
     * @return {@code {"$ref": "#/components/schemas/Name"}}
     */
    static ObjectNode ref(Class<?> record, Map<String, ObjectNode> components) {
        if (!record.isRecord()) {
            throw new IllegalArgumentException(record.getName() + " is not a record");
        }
        String name = record.getSimpleName();
        if (!components.containsKey(name)) {
            components.put(name, JsonText.object()); // placed first: a record that holds itself ends here
            components.put(name, object(record, components));
        }
        ObjectNode ref = JsonText.object();
        ref.put("$ref", REF_PREFIX + name);
        return ref;
    }

    private static ObjectNode object(Class<?> record, Map<String, ObjectNode> components) {
        ObjectNode schema = JsonText.object();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (RecordComponent c : ordered(record)) {
            properties.set(c.getName(), schema(record, c, c.getGenericType(), components));
            JsonInclude include = c.getAccessor().getAnnotation(JsonInclude.class);
            if (include == null) {
                include = c.getAnnotation(JsonInclude.class);
            }
            if (include == null || include.value() != JsonInclude.Include.NON_NULL) {
                required.add(c.getName());
            }
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    /** @return the record's components in its {@link JsonPropertyOrder}, then any it does not name, as declared */
    static List<RecordComponent> ordered(Class<?> record) {
        JsonPropertyOrder order = record.getAnnotation(JsonPropertyOrder.class);
        List<String> names = order == null ? List.of() : List.of(order.value());
        return Arrays.stream(record.getRecordComponents())
                .sorted(Comparator.comparingInt(c -> names.contains(c.getName()) ? names.indexOf(c.getName()) : names.size()))
                .toList();
    }

    private static ObjectNode schema(Class<?> record, RecordComponent c, Type type, Map<String, ObjectNode> components) {
        boolean nullable = c.isAnnotationPresent(Nullable.class) || type == Long.class || type == Integer.class || type == Double.class;
        return schema(record, c, type, nullable, components);
    }

    private static ObjectNode schema(Class<?> record, RecordComponent c, Type type, boolean nullable, Map<String, ObjectNode> components) {
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            ObjectNode out = typed("array", nullable);
            out.set("items", schema(record, c, p.getActualTypeArguments()[0], false, components));
            return out;
        }
        if (type instanceof ParameterizedType p && p.getRawType() == Map.class && p.getActualTypeArguments()[0] == String.class) {
            ObjectNode out = typed("object", nullable);
            out.set("additionalProperties", schema(record, c, p.getActualTypeArguments()[1], false, components));
            return out;
        }
        if (type == String.class) {
            return typed("string", nullable);
        }
        if (type == long.class || type == int.class || type == Long.class || type == Integer.class) {
            return typed("integer", nullable);
        }
        if (type == double.class || type == Double.class) {
            return typed("number", nullable);
        }
        if (type == boolean.class) {
            return typed("boolean", false);
        }
        if (type instanceof Class<?> k && k.isEnum()) {
            ObjectNode out = typed("string", nullable);
            ArrayNode values = out.putArray("enum");
            for (Object constant : k.getEnumConstants()) {
                values.add(JsonText.tree(constant)); // as Jackson writes it: the constant's @JsonValue
            }
            if (nullable) {
                values.addNull();
            }
            return out;
        }
        if (type instanceof Class<?> k && k.isRecord()) {
            ObjectNode ref = ref(k, components);
            if (!nullable) {
                return ref;
            }
            ObjectNode out = JsonText.object();
            out.putArray("anyOf").add(ref).add(typed("null", false));
            return out;
        }
        throw new IllegalArgumentException(record.getName() + "." + c.getName() + " is a " + type.getTypeName()
                + ", which JsonSchemas does not know: use String, long, int, Long, Integer, double, Double, boolean, an enum, a List, "
                + "a Map with String keys or a record");
    }

    private static ObjectNode typed(String type, boolean nullable) {
        ObjectNode out = JsonText.object();
        if (nullable) {
            out.putArray("type").add(type).add("null");
        } else {
            out.put("type", type);
        }
        return out;
    }
}
