package io.railmap.matrix.emit;

import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.model.WireNames;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.topology.Topology;
import java.util.Map;
import java.util.Optional;

/** What a plan can be written as; {@link #render} is the one dispatch used by the CLI and the HTTP API. */
public enum Format {
    /** The jaccl devices file (MLX_IBV_DEVICES), {@link DevicesCodec#write}. */
    JACCL("application/json"),
    /** The jaccl environment, {@link JacclEnv}. */
    ENV("text/plain"),
    /** An mlx.launch hostfile, {@link LaunchHostfile}. */
    LAUNCH("application/json"),
    /** Matrix, ring flag, rank order and findings, {@link PlanJson}. */
    JSON("application/json"),
    /** Graphviz DOT of the cable graph, {@link Dot}. */
    DOT("text/vnd.graphviz"),
    /** An mlx.launch hostfile for MLX's TCP ring backend over the nodes' cables, {@link RingHostfiles#launch}. */
    RING_LAUNCH("application/json"),
    /** The file MLX_HOSTFILE names for MLX's TCP ring backend, {@link RingHostfiles#hosts}. */
    RING_HOSTS("application/json");

    private final String mediaType;

    Format(String mediaType) {
        this.mediaType = mediaType;
    }

    /** @return the HTTP media type of this format's text */
    public String mediaType() {
        return mediaType;
    }

    /** @return the lower-case name used on the command line and in query strings */
    public String wireName() {
        return WireNames.of(this);
    }

    /**
     * @param value a name such as {@code "jaccl"}, any case
     * @return the format
     * @throws IllegalArgumentException naming the valid formats when none matches
     */
    public static Format fromWire(String value) {
        return WireNames.parse(Format.class, "format", value);
    }

    /**
     * Options only some formats read.
     *
     * @param devicesPath env: MLX_IBV_DEVICES, the devices file's path on every node
     * @param coordinator env: MLX_JACCL_COORDINATOR, {@code IPv4:port} that rank 0 binds; empty for rank
     *                    0's management address and port {@value Addresses#DEFAULT_COORDINATOR_PORT}
     * @param rank        env: one rank to write, or empty for every rank
     * @param ips         launch: IPv4 address per node, winning over the nodes' management addresses
     */
    public record Options(String devicesPath, Optional<String> coordinator, Optional<Integer> rank, Map<String, String> ips) {
        /** The default devices file path on nodes. */
        public static final String DEFAULT_DEVICES_PATH = "/etc/railmap/devices.json";

        /** Copies the map. */
        public Options {
            ips = Map.copyOf(ips);
        }
    }

    /**
     * @param topology the cable graph (for {@link #DOT})
     * @param plan     the plan
     * @param options  the options some formats read
     * @return the text
     * @throws IllegalArgumentException when a format's option is malformed, or an address it needs is
     *                                  neither given nor in the records (env: the coordinator; launch:
     *                                  rank 0's address)
     * @throws io.railmap.matrix.plan.NoRingException for {@link #RING_LAUNCH} and {@link #RING_HOSTS},
     *                                  when no ring of cables with IPv4 ends passes through the ranks
     */
    public String render(Topology topology, Plan plan, Options options) {
        return switch (this) {
            case JACCL -> DevicesCodec.write(plan.matrix().devices());
            case ENV -> JacclEnv.render(plan, options.devicesPath(),
                    options.coordinator().orElseGet(() -> Addresses.coordinator(topology, plan.ranks())), options.rank());
            case LAUNCH -> LaunchHostfile.render(plan, Addresses.launchIps(topology, plan.ranks(), options.ips()));
            case JSON -> PlanJson.render(plan);
            case DOT -> Dot.render(topology, plan);
            case RING_LAUNCH -> RingHostfiles.launch(MlxRing.of(topology, plan.ranks()).requireRing());
            case RING_HOSTS -> RingHostfiles.hosts(MlxRing.of(topology, plan.ranks()).requireRing());
        };
    }
}
