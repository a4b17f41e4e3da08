package io.railmap.daemon.api;

import io.railmap.daemon.api.QueryParams.Kind;
import io.railmap.daemon.api.QueryParams.Param;
import io.railmap.matrix.library.Libraries;
import io.railmap.matrix.library.Library;
import io.railmap.matrix.library.LibraryOption;
import io.railmap.matrix.library.NodeEnv;
import io.railmap.matrix.library.SettingsOptions;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Rates;
import io.vertx.core.MultiMap;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The query string of {@code GET /v1/env}: {@code node=NAME} and {@code for=nccl,ucx} (required),
 * {@code minRateGbps=X} and {@code mxStripe=true|false} (optional; {@code mxStripe=true} needs
 * {@code mx} in {@code for}, {@link NodeEnv#requireRead}), {@code format=text|json} (default text), as
 * {@code railmap env} takes them.
 *
 * @param node      the node whose settings to write
 * @param libraries the libraries, in the order named
 * @param options   the minimum rate of a compute NIC and ModelExpress's stripe mode
 * @param json      true for {@link NodeEnv#json()}, false for {@link NodeEnv#text()}
 */
record EnvQuery(String node, List<Library> libraries, SettingsOptions options, boolean json) {
    private static final String EXAMPLE = "/v1/env?node=g1&for=nccl";

    /** The parameters every library takes, then those of {@link LibraryOption}, each naming the libraries that read it. */
    static final List<Param> PARAMETERS = Stream.concat(Stream.of(
            Param.optional("node", Kind.STRING, "the node whose settings to write; an unknown node is 404").asRequired(),
            Param.optional("for", Kind.STRING, "LIB,LIB,...: the libraries, in order, of "
                    + Libraries.ALL.stream().map(Library::name).collect(Collectors.joining(", "))).asRequired(),
            Param.optional("minRateGbps", Kind.NUMBER, "NICs slower than this many Gbit/s are not compute NICs; a finite number, 0 or more"),
            Param.optional("format", Kind.STRING, "text (default): KEY=VALUE lines; json: the same as JSON").only(List.of("text", "json"))),
            Arrays.stream(LibraryOption.values()).map(o -> Param.optional(o.param(), Kind.BOOLEAN, "read by "
                    + Libraries.ALL.stream().filter(l -> l.options().contains(o)).map(Library::name).collect(Collectors.joining(", "))
                    + " only; default false"))).toList();

    /** @throws IllegalArgumentException naming the parameter when one is unknown, repeated, missing or malformed */
    static EnvQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, PARAMETERS);
        String node = Names.node("node", QueryParams.required(params, "node", EXAMPLE));
        List<Library> libraries = NodeEnv.libraries(QueryParams.required(params, "for", EXAMPLE));
        // checked here, so that the error names this parameter rather than the CLI's flag
        Optional<Double> minRate = QueryParams.number(params, "minRateGbps").map(v -> Rates.requireRate("minRateGbps", v));
        boolean stripe = QueryParams.bool(params, LibraryOption.MX_STRIPE.param(), false);
        String format = Optional.ofNullable(params.get("format")).orElse("text");
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("format \"" + Names.escape(format) + "\" is neither text nor json");
        }
        SettingsOptions options = new SettingsOptions(minRate, stripe);
        NodeEnv.requireRead(libraries, options, LibraryOption::param);
        return new EnvQuery(node, libraries, options, format.equals("json"));
    }
}
