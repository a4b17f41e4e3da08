package io.railmap.matrix.jaccl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The variables jaccl reads at init, per MLX release: one definition for the env writer
 * ({@code railmap matrix --format env}) and the {@code jaccl} library's settings ({@code railmap env}).
 *
 * <p>{@code MLX_IBV_DEVICES} (the devices file's path; {@code MLX_JACCL_DEVICES} in MLX 0.30.3
 * alone), {@code MLX_RANK} (0-based), {@code MLX_JACCL_COORDINATOR} ({@code IPv4:port} that rank 0
 * binds) and {@code MLX_JACCL_RING}, only for a ring: jaccl turns the ring on when the variable is
 * present at all, whatever its value. From 0.31.2 jaccl reads the {@code JACCL_*} names first, so
 * those are written too: an inherited {@code JACCL_*} value cannot replace ours.
 *
 * <p>Source: MLX {@code mlx/distributed/jaccl/jaccl.cpp} {@code init} before 0.31.2,
 * {@code mlx/distributed/jaccl/lib/jaccl/jaccl.cpp} {@code Config::from_env} since.
 */
public final class JacclVariables {
    /** Where railmap's devices file goes on every node unless told otherwise ({@code MLX_IBV_DEVICES}). */
    public static final String DEFAULT_DEVICES_PATH = "/etc/railmap/devices.json";

    private JacclVariables() {
    }

    /**
     * @param version the MLX release
     * @param runRing whether the ring runs ({@code MLX_JACCL_RING} present)
     * @return for a mesh, the sentence saying to unset the ring variables (a {@code KEY=VALUE} file
     *         cannot unset them); empty for a ring
     */
    public static Optional<String> meshNote(MlxVersion version, boolean runRing) {
        if (runRing) {
            return Optional.empty();
        }
        boolean both = version.readsJacclVariables();
        return Optional.of("mesh: jaccl runs the ring when " + (both ? "JACCL_RING or " : "") + "MLX_JACCL_RING exists at all, so unset "
                + (both ? "both" : "it") + " in the job's environment");
    }

    /**
     * The variables of one rank, unquoted, in the order the env writer writes them.
     *
     * @param version     the MLX release
     * @param runRing     whether the ring runs: {@code MLX_JACCL_RING} is written only then
     * @param devicesPath where the devices file will be on every node (the value of MLX_IBV_DEVICES)
     * @param coordinator {@code IPv4:port} that rank 0 binds
     * @param rank        the rank, in [0, N)
     * @return name and value of each variable
     */
    public static List<Map.Entry<String, String>> of(MlxVersion version, boolean runRing, String devicesPath, String coordinator,
                                                     int rank) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        out.add(Map.entry(version.devicesVariable(), devicesPath));
        out.add(Map.entry("MLX_RANK", String.valueOf(rank)));
        out.add(Map.entry("MLX_JACCL_COORDINATOR", coordinator));
        if (runRing) {
            out.add(Map.entry("MLX_JACCL_RING", "1"));
        }
        if (version.readsJacclVariables()) {
            out.add(Map.entry("JACCL_IBV_DEVICES", devicesPath));
            out.add(Map.entry("JACCL_RANK", String.valueOf(rank)));
            out.add(Map.entry("JACCL_COORDINATOR", coordinator));
            if (runRing) {
                out.add(Map.entry("JACCL_RING", "1"));
            }
        }
        return out;
    }
}
