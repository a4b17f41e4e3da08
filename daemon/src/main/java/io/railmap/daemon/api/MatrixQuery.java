package io.railmap.daemon.api;

import io.railmap.daemon.api.QueryParams.Kind;
import io.railmap.daemon.api.QueryParams.Param;
import io.railmap.matrix.emit.Format;
import io.railmap.matrix.emit.FormatOption;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.rail.RailOptions;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    /** The kind and meaning of each parameter of {@link FormatOption}; one not listed here is text. */
    private static final Map<String, Param> OPTION_PARAMS = Map.of(
            "order", Param.optional("order", Kind.STRING, "how to order the ranks: given (default, as in hosts) or ring (a cycle of the "
                    + "cables that maximises the smallest wire count)").only(Stream.of(Order.values()).map(Order::externalName).toList()),
            "minRateGbps", Param.optional("minRateGbps", Kind.NUMBER, "cables slower than this many Gbit/s are no rails; default 0"),
            "maxWires", Param.optional("maxWires", Kind.INTEGER, "at most this many rails per pair of ranks; default no limit"),
            "includeDown", Param.optional("includeDown", Kind.BOOLEAN, "true: cables whose ports are down are rails too; default false"),
            "equalRingWires", Param.optional("equalRingWires", Kind.BOOLEAN, "false: ring neighbours may have different wire counts; "
                    + "default true"),
            "mlxVersion", Param.optional("mlxVersion", Kind.STRING, "X.Y.Z: the MLX release whose jaccl reads the matrix, or whose "
                    + "mlx.launch reads the hostfile; default " + MlxVersion.NEWEST + " (the newest rules)"),
            "devicesPath", Param.optional("devicesPath", Kind.STRING, "where the devices file is on every node; default "
                    + Format.Options.DEFAULT_DEVICES_PATH),
            "coordinator", Param.optional("coordinator", Kind.STRING, "HOST:PORT that rank 0 binds"),
            "rank", Param.optional("rank", Kind.INTEGER, "write the settings of this rank only"),
            "ip", Param.optional("ip", Kind.STRING, "NODE=IPV4: a node's address when its record has none to offer").asRepeatable());

    /**
     * The parameters, in the order the document lists them: {@code hosts}, {@code format}, then those of
     * {@link FormatOption} in its order, each naming the formats of {@link Formats#ALL} that read it.
     */
    static final List<Param> PARAMETERS = parameters();

    private static List<Param> parameters() {
        List<Param> out = new ArrayList<>();
        out.add(Param.optional("hosts", Kind.STRING, "NODE,NODE,...: the node of each rank, in order; default every node"));
        out.add(Param.optional("format", Kind.STRING, "what to write; default " + Formats.standard().name() + ". "
                + Formats.ALL.stream().map(f -> f.name() + ": " + f.summary()).collect(Collectors.joining("; "))).only(Formats.names()));
        for (FormatOption option : FormatOption.values()) {
            String readers = Formats.ALL.stream().filter(f -> f.reads().contains(option)).map(Format::name).collect(Collectors.joining(", "));
            for (String name : option.parameters()) {
                Param p = OPTION_PARAMS.getOrDefault(name, Param.optional(name, Kind.STRING, name));
                out.add(new Param(name, p.kind(), p.allowed(), p.description() + ". Read by " + readers + "; any other format refuses it",
                        false, p.repeatable()));
            }
        }
        return List.copyOf(out);
    }

    /**
     * @throws IllegalArgumentException naming the parameter when one is unknown, repeated where it may
     *                                  not be, or malformed
     */
    static MatrixQuery parse(MultiMap params) {
        QueryParams.requireKnown(params, PARAMETERS);
        Optional<List<String>> hosts = Optional.ofNullable(params.get("hosts")).map(h -> Names.nodeList("hosts", h));
        Order order = Optional.ofNullable(params.get("order")).map(Order::fromExternalName).orElse(Order.GIVEN);
        Format format = Optional.ofNullable(params.get("format")).map(Formats::named).orElse(Formats.standard());
        Formats.requireRead(format, FormatOption::parameters, params::contains);
        RailOptions rails = new RailOptions(!QueryParams.bool(params, "includeDown", false),
                QueryParams.number(params, "minRateGbps").orElse(0.0),
                QueryParams.integer(params, "maxWires").orElse(Integer.MAX_VALUE),
                QueryParams.bool(params, "equalRingWires", true));
        Map<String, String> ips = new LinkedHashMap<>();
        for (String ip : params.getAll("ip")) {
            int eq = ip.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("ip \"" + Names.escape(ip) + "\" is not NODE=IPV4");
            }
            ips.put(Names.node("ip", ip.substring(0, eq)), ip.substring(eq + 1));
        }
        Format.Options emit = new Format.Options(
                Optional.ofNullable(params.get("devicesPath")).orElse(Format.Options.DEFAULT_DEVICES_PATH),
                Optional.ofNullable(params.get("coordinator")),
                QueryParams.integer(params, "rank"), ips);
        return new MatrixQuery(hosts, order, format, rails, emit, mlxVersion(params));
    }

    /** @return {@code mlxVersion=X.Y.Z}, or the newest rules when absent */
    static MlxVersion mlxVersion(MultiMap params) {
        return Optional.ofNullable(params.get("mlxVersion")).map(v -> MlxVersion.parse("mlxVersion", v)).orElse(MlxVersion.NEWEST);
    }
}
