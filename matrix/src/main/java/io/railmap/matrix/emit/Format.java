package io.railmap.matrix.emit;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclVariables;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.Order;
import io.railmap.matrix.plan.Plan;
import io.railmap.matrix.plan.Planner;
import io.railmap.matrix.rail.RailOptions;
import io.railmap.matrix.topology.Topology;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One output of {@code railmap matrix --format NAME} and {@code GET /v1/matrix?format=NAME}. Each
 * format is one class that owns its options ({@link #reads()}) and its rules, registered once in
 * {@link Formats#ALL}; the CLI's help, its refusal of options a format does not read, and the API's
 * known query parameters all come from there. The jaccl formats plan with jaccl's rules
 * ({@link Planner}); the TCP ring formats do not, so a jaccl limit never refuses them.
 */
public interface Format {
    /**
     * What a format is, for the registry, the help and the API.
     *
     * @param name              the name on the command line and in query strings, e.g. {@code "ring-launch"}
     * @param mediaType         the HTTP media type of the text
     * @param summary           one sentence for {@code railmap matrix --help}: what the text is and who reads it
     * @param reads             the options beyond the hosts that change the text; any other given is refused
     * @param textHoldsFindings true when the text itself holds the findings (so they are not printed again)
     */
    record About(String name, String mediaType, String summary, Set<FormatOption> reads, boolean textHoldsFindings) {
        /** Copies the set, in the options' declared order (help lists them so). */
        public About {
            reads = Collections.unmodifiableSet(reads.isEmpty() ? EnumSet.noneOf(FormatOption.class) : EnumSet.copyOf(reads));
        }
    }

    /** @return what the format is */
    About about();

    /** @return {@link About#name()} */
    default String name() {
        return about().name();
    }

    /** @return {@link About#mediaType()} */
    default String mediaType() {
        return about().mediaType();
    }

    /** @return {@link About#summary()} */
    default String summary() {
        return about().summary();
    }

    /** @return {@link About#reads()} */
    default Set<FormatOption> reads() {
        return about().reads();
    }

    /** @return {@link About#textHoldsFindings()} */
    default boolean textHoldsFindings() {
        return about().textHoldsFindings();
    }

    /**
     * @param request the topology, the nodes and the options
     * @return the text and the findings about it
     * @throws IllegalArgumentException when an option is malformed, or an address the format needs is
     *                                  neither given nor in the records
     * @throws io.railmap.matrix.rail.UnknownNodesException when a node has no record
     * @throws io.railmap.matrix.plan.NoRingException when the format needs a ring of cables and none
     *                                  passes through the nodes
     */
    Output write(Request request);

    /**
     * @return the record the format's text is written from by Jackson, when it is railmap's own JSON
     *         ({@link PlanJson}): the daemon's API document derives the answer's schema from it; empty
     *         for a format whose shape belongs to another tool (jaccl's devices file, mlx.launch's hostfile)
     */
    default Optional<Class<? extends Record>> jsonRecord() {
        return Optional.empty();
    }

    /**
     * What a format is asked for.
     *
     * @param topology   the cable graph
     * @param nodes      the nodes to rank, in the order given
     * @param order      how the jaccl formats order the ranks
     * @param rails      which cables become jaccl rails
     * @param mlxVersion the MLX release whose jaccl reads the matrix
     * @param options    the options only some formats read
     */
    record Request(Topology topology, List<String> nodes, Order order, RailOptions rails, MlxVersion mlxVersion, Options options) {
        /** Copies the list. */
        public Request {
            nodes = List.copyOf(nodes);
        }

        /** @return jaccl's plan of the nodes ({@link Planner#plan}), with the exceptions it throws */
        public Plan plan() {
            return Planner.plan(topology, nodes, order, rails, mlxVersion);
        }
    }

    /**
     * Options only some formats read ({@link FormatOption}).
     *
     * @param devicesPath env: MLX_IBV_DEVICES, the devices file's path on every node
     * @param coordinator env: MLX_JACCL_COORDINATOR, {@code IPv4:port} that rank 0 binds; empty for rank
     *                    0's management address and port {@value io.railmap.matrix.address.Addresses#STARTING_PORT}
     * @param rank        env: one rank to write, or empty for every rank
     * @param ips         launch: IPv4 address per node, winning over the nodes' management addresses
     */
    record Options(String devicesPath, Optional<String> coordinator, Optional<Integer> rank, Map<String, String> ips) {
        /** The default devices file path on nodes. */
        public static final String DEFAULT_DEVICES_PATH = JacclVariables.DEFAULT_DEVICES_PATH;

        /** Copies the map. */
        public Options {
            ips = Map.copyOf(ips);
        }
    }

    /**
     * @param text     what is written, ending with a newline
     * @param findings what the format's rules found (errors mean the library would refuse or misbehave)
     */
    record Output(String text, List<Finding> findings) {
        /** Copies the list. */
        public Output {
            findings = List.copyOf(findings);
        }

        /** @return true when a finding is an error: {@code railmap matrix} exits 2 */
        public boolean hasErrors() {
            return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
        }
    }
}
