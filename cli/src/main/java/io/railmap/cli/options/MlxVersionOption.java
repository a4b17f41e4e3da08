package io.railmap.cli.options;

import io.railmap.matrix.jaccl.MlxVersion;
import picocli.CommandLine.Option;

/** {@code --mlx-version X.Y.Z}: the MLX release whose jaccl or mlx.launch reads the output ({@link MlxVersion}). */
public final class MlxVersionOption {
    @Option(names = "--mlx-version", paramLabel = "X.Y.Z",
            description = "The MLX release that will read the matrix: its jaccl's rules shape and judge it (0.30.1-0.30.5: mesh only, one name per cell; 0.30.6-0.31.1: one name per mesh cell, null non-neighbour cells in a ring; before 0.32.0: one wire per ring edge; from 0.31.2 the JACCL_* variables); for launch and ring-launch, the hostfile form its mlx.launch reads (a bare array of hosts before 0.30.6). Default: the newest rules railmap knows.")
    String value;

    /**
     * @return the release, {@link MlxVersion#NEWEST} when the option is absent
     * @throws IllegalArgumentException naming the option when the value is malformed or has no jaccl
     */
    public MlxVersion version() {
        return value == null ? MlxVersion.NEWEST : MlxVersion.parse("--mlx-version", value);
    }
}
