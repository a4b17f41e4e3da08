package io.railmap.daemon.api;

import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one rule for a query string (only the parameters a resource declares, each at most once unless
 * it may repeat) and the readers of its values. Each resource declares its parameters once as a list
 * of {@link Param}: the check here and the OpenAPI document ({@link ApiDocument}) both read that list.
 */
final class QueryParams {
    private QueryParams() {
    }

    /** What a parameter's value is, for the check and the document's schema. */
    enum Kind {
        /** Any text (a node list, a path, an address). */
        STRING("string"),
        /** A decimal number, as {@link Double#parseDouble} reads it. */
        NUMBER("number"),
        /** A whole number that fits in an {@code int}. */
        INTEGER("integer"),
        /** {@code true} or {@code false}, nothing else. */
        BOOLEAN("boolean");

        private final String schemaType;

        Kind(String schemaType) {
            this.schemaType = schemaType;
        }

        /** @return the JSON Schema type, e.g. {@code "integer"} */
        String schemaType() {
            return schemaType;
        }
    }

    /**
     * One query parameter a resource takes.
     *
     * @param name        its name in the query string
     * @param kind        what its value is
     * @param allowed     the only values it takes, or empty for any of its kind
     * @param description one sentence for the document: what it does, its default, who reads it
     * @param required    true when the resource refuses a request without it
     * @param repeatable  true when it may be given more than once
     */
    record Param(String name, Kind kind, List<String> allowed, String description, boolean required, boolean repeatable) {
        /** Copies the allowed values. */
        Param {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            allowed = List.copyOf(allowed);
            Objects.requireNonNull(description, "description");
        }

        /** @return an optional parameter given at most once, taking any value of its kind */
        static Param optional(String name, Kind kind, String description) {
            return new Param(name, kind, List.of(), description, false, false);
        }

        /** @return this parameter, required */
        Param asRequired() {
            return new Param(name, kind, allowed, description, true, repeatable);
        }

        /** @return this parameter, repeatable */
        Param asRepeatable() {
            return new Param(name, kind, allowed, description, required, true);
        }

        /** @return this parameter, taking only these values */
        Param only(List<String> values) {
            return new Param(name, kind, values, description, required, repeatable);
        }
    }

    /**
     * @param ctx the request
     * @return its query parameters, decoded
     * @throws IllegalArgumentException quoting the query string when its percent-encoding is bad
     *                                  ({@code %zz}, a lone {@code %})
     */
    static MultiMap of(RoutingContext ctx) {
        try {
            return ctx.queryParams();
        } catch (HttpException e) {
            throw new IllegalArgumentException("the query string " + ErrorReplies.quoted(ctx.request().query())
                    + " is not valid percent-encoding: write a reserved character as % and two hex digits, e.g. %2C for a comma");
        }
    }

    /**
     * @param params   the query parameters
     * @param declared the parameters the resource takes
     * @throws IllegalArgumentException naming the parameter when one is unknown or repeated where it
     *                                  may not be
     */
    static void requireKnown(MultiMap params, List<Param> declared) {
        Set<String> known = declared.stream().map(Param::name).collect(Collectors.toSet());
        for (String name : params.names()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown query parameter " + ErrorReplies.quoted(name) + " (known: "
                        + String.join(", ", new TreeSet<>(known)) + ")");
            }
            boolean repeatable = declared.stream().anyMatch(p -> p.name().equals(name) && p.repeatable());
            if (!repeatable && params.getAll(name).size() > 1) {
                throw new IllegalArgumentException("query parameter " + ErrorReplies.quoted(name) + " is given more than once");
            }
        }
    }

    /**
     * @return the value of a parameter that must be given
     * @throws IllegalArgumentException naming it, with an example of the resource's use, when it is absent
     */
    static String required(MultiMap params, String name, String example) {
        return Optional.ofNullable(params.get(name))
                .orElseThrow(() -> new IllegalArgumentException(name + " is missing: e.g. " + example));
    }

    /**
     * @return {@code true} or {@code false} as given, or {@code fallback} when the parameter is absent
     * @throws IllegalArgumentException quoting the value when it is anything else
     */
    static boolean bool(MultiMap params, String name, boolean fallback) {
        String value = params.get(name);
        if (value == null) {
            return fallback;
        }
        if (value.equals("true") || value.equals("false")) {
            return value.equals("true");
        }
        throw new IllegalArgumentException(name + " \"" + Names.escape(value) + "\" is neither true nor false");
    }

    /**
     * @return the number, or empty when the parameter is absent; NaN and infinities pass (the caller's
     *         own range check names them)
     * @throws IllegalArgumentException quoting the value when it is not a number
     */
    static Optional<Double> number(MultiMap params, String name) {
        return parsed(params, name, Double::parseDouble, "a number");
    }

    /**
     * @return the whole number, or empty when the parameter is absent
     * @throws IllegalArgumentException quoting the value when it is not a whole number within an {@code int}
     */
    static Optional<Integer> integer(MultiMap params, String name) {
        return parsed(params, name, Integer::parseInt, "a whole number");
    }

    private static <T> Optional<T> parsed(MultiMap params, String name, Function<String, T> parse, String what) {
        String value = params.get(name);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse.apply(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " \"" + Names.escape(value) + "\" is not " + what);
        }
    }
}
