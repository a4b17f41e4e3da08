package io.railmap.daemon.api;

import io.vertx.core.MultiMap;

/**
 * The query string of a resource that takes no parameters ({@code /healthz}, {@code /v1/record},
 * {@code /v1/snapshot}, {@code /v1/members}, {@code /metrics}): it must be empty.
 */
record NoQuery() {
    /**
     * @param params   the query parameters
     * @param resource the request, as {@code GET /v1/record}, for the message
     * @throws IllegalArgumentException naming the first parameter when there is any
     */
    static NoQuery parse(MultiMap params, String resource) {
        if (!params.isEmpty()) {
            throw new IllegalArgumentException(resource + " takes no query parameters, not "
                    + ErrorReplies.quoted(params.names().iterator().next()) + ": leave the query string out");
        }
        return new NoQuery();
    }
}
