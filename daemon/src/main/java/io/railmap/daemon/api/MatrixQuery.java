package io.railmap.daemon.api;

import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.FormatOption;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.rail.RailOptions;
import io.vertx.core.MultiMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The query string of {@code GET /v1/matrix}, with the same meaning as {@code railmap matrix}'s
 * options: {@code hosts=a,b} (default every node), {@code format=NAME} (a name of {@link Formats#ALL},
 * default jaccl), and the parameters of {@link FormatOption} the format reads: {@code order=given|ring},
 * {@code minRateGbps}, {@code maxWires}, {@code includeDown=true}, {@code equalRingWires=false},
 * {@code mlxVersion=X.Y.Z} (default the newest rules), for env {@code coordinator}, {@code devicesPath},
 * {@code rank}, for launch {@code ip=NODE=IPV4} (repeatable). A parameter the format does not read is
 * an error.
 *
 * @param hosts   the nodes to rank, or empty for every node
 * @param order   how to order the ranks
 * @param format  what to write
 * @param rails   which cables become rails
 * @param emit    the options some formats read
 * @param mlxVersion the MLX release whose jaccl reads the matrix, or whose mlx.launch reads the hostfile (launch, ring-launch)
 */
record MatrixQuery(Optional<List<String>> hosts, Order order, Format format, RailOptions rails, Format.Options emit,
                   MlxVersion mlxVersion) {
    private static final Set<String> KNOWN = Stream.concat(Stream.of("hosts", "format"),
            Stream.of(FormatOption.values()).flatMap(o -> o.parameters().stream())).collect(Collectors.toUnmodifiableSet());

    /**
     * @throws IllegalArgumentException naming the parameter when one is unknown, repeated where it may
     *                                  not be, or malformed
     */
    static MatrixQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, KNOWN, Set.of("ip"));
        Optional<List<String>> hosts = Optional.ofNullable(params.get("hosts")).map(h -> Names.nodeList("hosts", h));
        Order order = Optional.ofNullable(params.get("order")).map(Order::fromExternalName).orElse(Order.GIVEN);
        Format format = Optional.ofNullable(params.get("format")).map(Formats::named).orElse(Formats.standard());
        Formats.requireRead(format, FormatOption::parameters, params::contains);
        RailOptions rails = new RailOptions(!bool(params, "includeDown", false),
                Optional.ofNullable(params.get("minRateGbps")).map(v -> number("minRateGbps", v)).orElse(0.0),
                Optional.ofNullable(params.get("maxWires")).map(v -> integer("maxWires", v)).orElse(Integer.MAX_VALUE),
                bool(params, "equalRingWires", true));
        Map<String, String> ips = new LinkedHashMap<>();
        for (String ip : params.getAll("ip")) {
            int eq = ip.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("ip \"" + ip + "\" is not NODE=IPV4");
            }
            ips.put(Names.node("ip", ip.substring(0, eq)), ip.substring(eq + 1));
        }
        Format.Options emit = new Format.Options(
                Optional.ofNullable(params.get("devicesPath")).orElse(Format.Options.DEFAULT_DEVICES_PATH),
                Optional.ofNullable(params.get("coordinator")),
                Optional.ofNullable(params.get("rank")).map(v -> integer("rank", v)), ips);
        return new MatrixQuery(hosts, order, format, rails, emit, mlxVersion(params));
    }

    /** @return {@code mlxVersion=X.Y.Z}, or the newest rules when absent */
    static MlxVersion mlxVersion(MultiMap params) {
        return Optional.ofNullable(params.get("mlxVersion")).map(v -> MlxVersion.parse("mlxVersion", v)).orElse(MlxVersion.NEWEST);
    }

    private static boolean bool(MultiMap params, String name, boolean fallback) {
        String value = params.get(name);
        if (value == null) {
            return fallback;
        }
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException(name + " \"" + value + "\" is not true or false");
    }

    private static double number(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " \"" + value + "\" is not a number");
        }
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " \"" + value + "\" is not a whole number");
        }
    }
}
