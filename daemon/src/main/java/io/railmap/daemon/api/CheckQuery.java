package io.railmap.daemon.api;

import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import java.util.Optional;
import java.util.Set;

/**
 * The query string of {@code POST /v1/check}, with the meaning of {@code railmap check}'s options:
 * {@code hosts=a,b} (the node of each rank, in rank order: required with a devices file, optional
 * with an mlx.launch hostfile, which names its hosts) and {@code mode=auto|mesh|ring} (default: auto
 * for a devices file, a hostfile's own backend for a hostfile), {@code mlxVersion=X.Y.Z} (default the
 * newest rules).
 */
final class CheckQuery {
    private static final Set<String> KNOWN = Set.of("hosts", "mode", "mlxVersion");

    private CheckQuery() {
    }

    /**
     * @return the options, named {@code hosts=} and {@code mode=} in messages
     * @throws IllegalArgumentException naming the parameter when one is unknown, repeated or malformed
     */
    static CheckOptions parse(MultiMap params) {
        QueryParams.requireKnown(params, KNOWN, Set.of());
        return new CheckOptions(Optional.ofNullable(params.get("hosts")).map(hosts -> Names.nodeList("hosts", hosts)),
                Optional.ofNullable(params.get("mode")).map(Mode::fromExternalName), "hosts=", "mode=", MatrixQuery.mlxVersion(params));
    }
}
