package io.railmap.daemon.api;

import io.railmap.matrix.check.Mode;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The query string of {@code POST /v1/check}, with the meaning of {@code railmap check}'s options:
 * {@code hosts=a,b} (required: the node of each rank, in rank order) and {@code mode=auto|mesh|ring}
 * (default auto), {@code mlxVersion=X.Y.Z} (default the newest rules).
 *
 * @param ranks the node of each rank
 * @param mode  which jaccl topology to check as
 * @param mlxVersion the MLX release whose jaccl reads the file
 */
record CheckQuery(List<String> ranks, Mode mode, MlxVersion mlxVersion) {
    private static final Set<String> KNOWN = Set.of("hosts", "mode", "mlxVersion");

    /**
     * @throws IllegalArgumentException naming the parameter when one is unknown, repeated, missing
     *                                  (hosts) or malformed
     */
    static CheckQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, KNOWN, Set.of());
        String hosts = params.get("hosts");
        if (hosts == null) {
            throw new IllegalArgumentException("hosts is required: the node of each rank, in rank order (hosts=a,b,c)");
        }
        return new CheckQuery(Names.nodeList("hosts", hosts),
                Optional.ofNullable(params.get("mode")).map(Mode::fromWire).orElse(Mode.AUTO), MatrixQuery.mlxVersion(params));
    }
}
