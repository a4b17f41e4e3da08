package io.railmap.daemon.api;

import io.vertx.core.MultiMap;
import java.util.Set;
import java.util.TreeSet;

/** The one rule for a query string: only known parameters, each at most once unless it may repeat. */
final class QueryParams {
    private QueryParams() {
    }

    /**
     * @param params     the query parameters
     * @param known      the parameter names the endpoint takes
     * @param repeatable those of them that may be given several times
     * @throws IllegalArgumentException naming the parameter when one is unknown or repeated
     */
    static void requireKnown(MultiMap params, Set<String> known, Set<String> repeatable) {
        for (String name : params.names()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown query parameter \"" + name + "\" (known: "
                        + String.join(", ", new TreeSet<>(known)) + ")");
            }
            if (!repeatable.contains(name) && params.getAll(name).size() > 1) {
                throw new IllegalArgumentException("query parameter \"" + name + "\" is given more than once");
            }
        }
    }
}
