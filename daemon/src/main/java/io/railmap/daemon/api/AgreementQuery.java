package io.railmap.daemon.api;

import io.railmap.daemon.api.QueryParams.Kind;
import io.railmap.daemon.api.QueryParams.Param;
import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;

/**
 * The query string of {@code GET /v1/agreement}: {@code hosts=a,b} (optional), the nodes whose
 * records' digest to report as {@code hostsDigest}, as configs for those hosts carry it.
 *
 * @param hosts the nodes, in the order given; empty when not asked
 */
record AgreementQuery(Optional<List<String>> hosts) {
    /** The one parameter. */
    static final List<Param> PARAMETERS = List.of(Param.optional("hosts", Kind.STRING,
            "NODE,NODE,...: also report the digest configs for these hosts carry (hostsDigest)"));

    /** @throws IllegalArgumentException naming the parameter when one is unknown, repeated or malformed */
    static AgreementQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, PARAMETERS);
        return new AgreementQuery(Optional.ofNullable(params.get("hosts")).map(h -> Names.nodeList("hosts", h)));
    }
}
