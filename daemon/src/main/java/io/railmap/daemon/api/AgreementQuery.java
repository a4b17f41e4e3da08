package io.railmap.daemon.api;

import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The query string of {@code GET /v1/agreement}: {@code hosts=a,b} (optional), the nodes whose
 * records' digest to report as {@code hostsDigest}, as configs for those hosts carry it.
 *
 * @param hosts the nodes, in the order given; empty when not asked
 */
record AgreementQuery(Optional<List<String>> hosts) {
    private static final Set<String> KNOWN = Set.of("hosts");

    /** @throws IllegalArgumentException naming the parameter when one is unknown, repeated or malformed */
    static AgreementQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, KNOWN, Set.of());
        return new AgreementQuery(Optional.ofNullable(params.get("hosts")).map(h -> Names.nodeList("hosts", h)));
    }
}
