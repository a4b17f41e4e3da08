package io.railmap.daemon.api;

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
import java.util.Set;
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
    /** The parameters every library takes, then those of {@link LibraryOption}. */
    private static final Set<String> KNOWN = Stream.concat(Stream.of("node", "for", "minRateGbps", "format"),
            Arrays.stream(LibraryOption.values()).map(LibraryOption::param)).collect(Collectors.toUnmodifiableSet());

    /** @throws IllegalArgumentException naming the parameter when one is unknown, repeated, missing or malformed */
    static EnvQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, KNOWN, Set.of());
        String node = Names.node("node", required(params, "node"));
        List<Library> libraries = NodeEnv.libraries(required(params, "for"));
        // checked here, so that the error names this parameter rather than the CLI's flag
        Optional<Double> minRate = Optional.ofNullable(params.get("minRateGbps"))
                .map(v -> Rates.requireRate("minRateGbps", number(v)));
        String stripeParam = LibraryOption.MX_STRIPE.param();
        boolean stripe = Optional.ofNullable(params.get(stripeParam)).map(v -> flag(stripeParam, v)).orElse(false);
        String format = Optional.ofNullable(params.get("format")).orElse("text");
        if (!format.equals("text") && !format.equals("json")) {
            throw new IllegalArgumentException("format \"" + Names.escape(format) + "\" is neither text nor json");
        }
        SettingsOptions options = new SettingsOptions(minRate, stripe);
        NodeEnv.requireRead(libraries, options, LibraryOption::param);
        return new EnvQuery(node, libraries, options, format.equals("json"));
    }

    private static String required(MultiMap params, String name) {
        return Optional.ofNullable(params.get(name))
                .orElseThrow(() -> new IllegalArgumentException(name + " is missing: e.g. /v1/env?node=g1&for=nccl"));
    }

    private static double number(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("minRateGbps \"" + Names.escape(value) + "\" is not a number");
        }
    }

    private static boolean flag(String name, String value) {
        if (value.equals("true") || value.equals("false")) {
            return value.equals("true");
        }
        throw new IllegalArgumentException(name + " \"" + Names.escape(value) + "\" is neither true nor false");
    }
}
