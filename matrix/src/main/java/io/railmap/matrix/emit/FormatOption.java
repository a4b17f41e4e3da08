package io.railmap.matrix.emit;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An option that only some {@link Format}s read, under its command-line and query-string names.
 * Giving one to a format that does not read it is an error, never silently ignored.
 */
public enum FormatOption {
    /** How the jaccl formats order the ranks. */
    ORDER(List.of("--order"), List.of("order")),
    /** Which cables become jaccl rails. */
    RAILS(List.of("--min-rate-gbps", "--max-wires", "--include-down", "--equal-ring-wires"),
            List.of("minRateGbps", "maxWires", "includeDown", "equalRingWires")),
    /** The MLX release whose jaccl reads the matrix, or whose mlx.launch reads a hostfile (launch, ring-launch). */
    MLX_VERSION(List.of("--mlx-version"), List.of("mlxVersion")),
    /** env: where the devices file is on every node. */
    DEVICES_PATH(List.of("--devices-path"), List.of("devicesPath")),
    /** env: the address rank 0 binds. */
    COORDINATOR(List.of("--coordinator"), List.of("coordinator")),
    /** env: one rank only. */
    RANK(List.of("--rank"), List.of("rank")),
    /** launch: a node's IPv4 address. */
    IP(List.of("--ip"), List.of("ip"));

    /** What every jaccl format reads: the rank order, the rail options and the MLX release. */
    public static final Set<FormatOption> JACCL = Collections.unmodifiableSet(EnumSet.of(ORDER, RAILS, MLX_VERSION));

    private final List<String> flags;
    private final List<String> parameters;

    FormatOption(List<String> flags, List<String> parameters) {
        this.flags = flags;
        this.parameters = parameters;
    }

    /**
     * @param more options one jaccl format reads besides {@link #JACCL}
     * @return {@link #JACCL} and those
     */
    public static Set<FormatOption> jacclAnd(FormatOption... more) {
        EnumSet<FormatOption> all = EnumSet.copyOf(JACCL);
        all.addAll(List.of(more));
        return Collections.unmodifiableSet(all);
    }

    /** @return its names on {@code railmap matrix}'s command line */
    public List<String> flags() {
        return flags;
    }

    /** @return its names in {@code GET /v1/matrix}'s query string */
    public List<String> parameters() {
        return parameters;
    }
}
