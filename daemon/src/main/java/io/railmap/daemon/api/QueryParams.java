package io.railmap.daemon.api;

import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.Set;
import java.util.TreeSet;

/** The one rule for a query string: only known parameters, each at most once unless it may repeat. */
final class QueryParams {
    private QueryParams() {
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
     * @param params     the query parameters
     * @param known      the parameter names the endpoint takes
     * @param repeatable those of them that may be given several times
     * @throws IllegalArgumentException naming the parameter when one is unknown or repeated
     */
    static void requireKnown(MultiMap params, Set<String> known, Set<String> repeatable) {
        for (String name : params.names()) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown query parameter " + ErrorReplies.quoted(name) + " (known: "
                        + String.join(", ", new TreeSet<>(known)) + ")");
            }
            if (!repeatable.contains(name) && params.getAll(name).size() > 1) {
                throw new IllegalArgumentException("query parameter " + ErrorReplies.quoted(name) + " is given more than once");
            }
        }
    }
}
