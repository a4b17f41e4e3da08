package io.railmap.daemon.api;

import io.railmap.daemon.api.QueryParams.Kind;
import io.railmap.daemon.api.QueryParams.Param;
import io.railmap.matrix.check.CheckOptions;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The query string of {@code POST /v1/check}, with the meaning of {@code railmap check}'s options:
 * {@code hosts=a,b} (the node of each rank, in rank order: required with a devices file, optional
 * with an mlx.launch hostfile, which names its hosts) and {@code mode=auto|mesh|ring} (default: auto
 * for a devices file, a hostfile's own backend for a hostfile), {@code mlxVersion=X.Y.Z} (default the
 * newest rules).
 */
final class CheckQuery {
    /** The parameters, in the order the document lists them. */
    static final List<Param> PARAMETERS = List.of(
            Param.optional("hosts", Kind.STRING, "NODE,NODE,...: the node of each rank, in rank order; required with a devices file, "
                    + "optional with an mlx.launch hostfile (which names its hosts)"),
            Param.optional("mode", Kind.STRING, "how jaccl will read the file; default auto for a devices file, a hostfile's own "
                    + "backend for a hostfile").only(Stream.of(Mode.values()).map(Mode::externalName).toList()),
            Param.optional("mlxVersion", Kind.STRING, "X.Y.Z: the MLX release that reads the file; default " + MlxVersion.NEWEST));

    private CheckQuery() {
    }

    /**
     * @return the options, named {@code hosts=} and {@code mode=} in messages
     * @throws IllegalArgumentException naming the parameter when one is unknown, repeated or malformed
     */
    static CheckOptions parse(MultiMap params) {
        QueryParams.requireKnown(params, PARAMETERS);
        return new CheckOptions(Optional.ofNullable(params.get("hosts")).map(hosts -> Names.nodeList("hosts", hosts)),
                Optional.ofNullable(params.get("mode")).map(Mode::fromExternalName), "hosts=", "mode=", MatrixQuery.mlxVersion(params));
    }
}
