package io.railmap.matrix.check;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.EnumNames;
import java.util.List;
import java.util.Optional;

/**
 * The jaccl mode a hostfile is checked in, and why: what mlx.launch and jaccl would run it as
 * (MLX 0.32.1), unless a mode is asked for.
 *
 * <ul>
 * <li>backend {@code jaccl-ring}: {@link Mode#RING} (mlx.launch adds {@code MLX_JACCL_RING=1};
 *     {@code launch.py}, {@code launch_jaccl});</li>
 * <li>backend {@code jaccl}: {@link Mode#RING} when an {@code envs} entry sets
 *     {@code MLX_JACCL_RING} or {@code JACCL_RING}, whatever its value (mlx.launch exports every
 *     entry, {@code RemoteProcess.make_launch_script}; jaccl only tests whether the variable exists,
 *     reading {@code JACCL_RING} first since MLX 0.31.2: {@code jaccl.cpp}, {@code Config::from_env}),
 *     else {@link Mode#AUTO}, jaccl's own choice;</li>
 * <li>backend {@code ring}: {@link Mode#MLX_RING}, MLX's TCP ring backend over the hosts' {@code ips}
 *     ({@code launch_ring});</li>
 * <li>another backend, or none: mlx.launch would not run jaccl or the ring by the file alone (without
 *     a backend it runs {@code ring}, or {@code nccl} where CUDA is available; an unknown one it
 *     refuses), so there is nothing to check unless a mode is asked for, as
 *     {@code mlx.launch --backend jaccl} would override the file.</li>
 * </ul>
 * A mode asked for wins over the file, and the reason says what the file alone would mean. With the
 * ring asked for, jaccl itself falls back to a valid mesh when the ring is not valid
 * ({@code jaccl.cpp}, {@code init}); the file is still held to the ring its author asked for.
 *
 * @param mode   the mode to check in
 * @param from   where the mode came from
 * @param reason a phrase for people, e.g. {@code "backend jaccl-ring"} or
 *               {@code "--mode, over the file (backend jaccl-ring: ring)"}
 */
public record LaunchMode(Mode mode, Source from, String reason) {
    /** The variables whose presence turns jaccl's ring on, in the order jaccl reads them. */
    static final List<String> RING_VARIABLES = List.of("JACCL_RING", "MLX_JACCL_RING");

    /** Where a hostfile's mode came from. */
    public enum Source {
        /** The file's {@code backend}. */
        BACKEND,
        /** A ring variable in the file's {@code envs}. */
        ENVS,
        /** Asked for ({@code --mode}, {@code mode=}), over the file. */
        GIVEN;

        /** @return the JSON value, e.g. {@code "backend"} */
        @JsonValue
        public String externalName() {
            return EnumNames.of(this);
        }
    }

    /**
     * @param source     what the file came from, for error messages
     * @param file       the hostfile
     * @param given      the mode asked for, if any
     * @param modeOption how the mode is asked for where the file came from ({@code --mode},
     *                   {@code mode=}), for messages
     * @param version    the MLX release that runs the file: {@code JACCL_RING} counts only from
     *                   {@link MlxVersion#MULTI_NAME}, the first jaccl that reads it
     * @return the mode and why
     * @throws FormatException when no mode is asked for and the file's backend is not jaccl's, with
     *                         what mlx.launch would do instead and what to do
     */
    public static LaunchMode of(String source, Hostfile file, Optional<Mode> given, String modeOption, MlxVersion version) {
        Optional<LaunchMode> own = own(file, version);
        if (given.isPresent()) {
            return new LaunchMode(given.get(), Source.GIVEN, modeOption + ", over the file ("
                    + own.map(m -> m.reason() + ": " + m.mode().externalName()).orElse(notJaccl(file) + ": not jaccl") + ")");
        }
        if (own.isPresent()) {
            return own.get();
        }
        if (!version.launchReadsHostfileObject()) {
            throw new FormatException(source, "$", "MLX " + version + "'s mlx.launch takes the backend from its command line only"
                    + " (a hostfile is a bare array of hosts): give " + modeOption + " to check the rdma rows as mlx.launch"
                    + " --backend jaccl would run them");
        }
        String instead = file.backend().isEmpty() ? " (it would run ring, or nccl where CUDA is available)"
                : Hostfile.BACKENDS.contains(file.backend().get()) ? ""
                : " (it refuses the file: \"The backend should be one of {'ring', 'mpi', 'nccl', 'jaccl', 'jaccl-ring'}\")";
        throw new FormatException(source, file.bare() ? "$" : "$.backend", notJaccl(file) + ", so mlx.launch would not run jaccl"
                + " or the ring" + instead + ": set \"backend\" to \"jaccl\", \"jaccl-ring\" or \"ring\", or give " + modeOption
                + " to check the rdma rows as jaccl would read them (as mlx.launch --backend jaccl would run them)");
    }

    /** @return the mode the file alone gives, or empty when its backend is neither jaccl's nor the ring's */
    private static Optional<LaunchMode> own(Hostfile file, MlxVersion version) {
        String backend = file.backend().orElse("");
        if (backend.equals("ring")) {
            return Optional.of(new LaunchMode(Mode.MLX_RING, Source.BACKEND, "backend ring: MLX's TCP ring backend over the hosts' ips"));
        }
        if (backend.equals("jaccl-ring")) {
            return Optional.of(new LaunchMode(Mode.RING, Source.BACKEND, "backend jaccl-ring"));
        }
        if (!backend.equals("jaccl")) {
            return Optional.empty();
        }
        for (String key : file.variables().keySet()) {
            if (RING_VARIABLES.contains(key) && (version.readsJacclVariables() || key.startsWith("MLX_"))) {
                return Optional.of(new LaunchMode(Mode.RING, Source.ENVS, "backend jaccl with " + key
                        + " in envs (jaccl runs a ring whenever it is set, whatever its value)"));
            }
        }
        return Optional.of(new LaunchMode(Mode.AUTO, Source.BACKEND, "backend jaccl with no ring variable: jaccl's own choice"));
    }

    private static String notJaccl(Hostfile file) {
        return file.backend().map(b -> "the backend is \"" + Names.escape(b) + "\"")
                .orElse(file.bare() ? "a bare array of hosts names no backend" : "the hostfile names no backend");
    }
}
