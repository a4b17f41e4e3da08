package io.railmap.matrix.jaccl;

import io.railmap.matrix.model.Names;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An MLX release, {@code MAJOR.MINOR.PATCH}, and the releases at which jaccl's rules changed (read in
 * the ml-explore/mlx repository at each tag, {@code mlx/distributed/jaccl/}):
 * <ul>
 *   <li>{@link #FIRST_JACCL} 0.30.1: jaccl appears, mesh only ({@code jaccl.cpp}, {@code init},
 *       {@code load_device_names}): each cell must be null or one name, at most 8 ranks.</li>
 *   <li>{@link #RING} 0.30.6: the ring ({@code jaccl.cpp}, {@code DeviceFile}): cells may be arrays;
 *       a mesh needs exactly one name per cell, a ring needs empty non-neighbour cells.</li>
 *   <li>{@link #MULTI_NAME} 0.31.2: the jaccl library ({@code lib/jaccl/jaccl.cpp},
 *       {@code Config::is_valid_mesh}, {@code Config::from_env}): a mesh cell may hold several names
 *       (wire 0 is used), non-neighbour cells of a ring are ignored, and {@code JACCL_*} variables are
 *       read before the {@code MLX_*} ones; a file valid as neither gives a group of one instead of an
 *       exception.</li>
 *   <li>{@link #MULTI_WIRE_RING} 0.32.0: a ring of several wires no longer hangs in point-to-point
 *       send/recv ({@code lib/jaccl/ring_impl.h}, {@code RingImpl::recv}: the receive prefill counted
 *       from the start of the message instead of the wire's own slice, mlx pull request 3654). Its
 *       all-reduce and all-gather interleave the wires' frames and were already correct; the
 *       contiguous wire slices that overran each other came with the refactor of mlx pull request
 *       3900 and were fixed by pull request 4193, both first released in 0.32.1, so no release runs
 *       them wrongly.</li>
 *   <li>{@link #NEWEST} 0.32.1: the newest release railmap has read; its jaccl rules are those of
 *       0.32.0.</li>
 * </ul>
 * MLX 0.30.3 alone reads the devices file path from {@code MLX_JACCL_DEVICES} instead of
 * {@code MLX_IBV_DEVICES} ({@link #devicesVariable()}). mlx.launch's hostfile reader
 * ({@code python/mlx/_distributed_utils/common.py}) changed twice: before 0.30.6 {@code parse_hostfile}
 * reads only a bare array of hosts ({@link #launchReadsHostfileObject()}); from 0.30.6
 * {@code Hostfile.from_file} also reads an object, which needs {@code backend} and {@code envs} up to
 * 0.32.0 and not from 0.32.1 ({@link #launchNeedsBackendAndEnvs()}).
 *
 * @param major the major number
 * @param minor the minor number
 * @param patch the patch number
 */
public record MlxVersion(int major, int minor, int patch) implements Comparable<MlxVersion> {
    /** The first MLX with jaccl. */
    public static final MlxVersion FIRST_JACCL = new MlxVersion(0, 30, 1);
    /** The first MLX whose jaccl has a ring. */
    public static final MlxVersion RING = new MlxVersion(0, 30, 6);
    /** The first MLX that takes several names in a mesh cell and reads {@code JACCL_*} variables. */
    public static final MlxVersion MULTI_NAME = new MlxVersion(0, 31, 2);
    /** The first MLX whose ring of several wires does not hang in send/recv. */
    public static final MlxVersion MULTI_WIRE_RING = new MlxVersion(0, 32, 0);
    /** The newest release whose rules railmap has read, and the default. */
    public static final MlxVersion NEWEST = new MlxVersion(0, 32, 1);

    private static final MlxVersion DEVICES_VARIABLE_RENAMED = new MlxVersion(0, 30, 3);
    private static final MlxVersion HOSTFILE_KEYS_OPTIONAL = new MlxVersion(0, 32, 1);
    private static final Pattern FORM = Pattern.compile("([0-9]{1,4})\\.([0-9]{1,4})\\.([0-9]{1,4})");

    /** @throws IllegalArgumentException when a number is negative */
    public MlxVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("an MLX version has no negative numbers");
        }
    }

    /**
     * @param what  what the value is, for the message (e.g. {@code "--mlx-version"})
     * @param value {@code MAJOR.MINOR.PATCH}, such as {@code 0.31.2}
     * @return the version
     * @throws IllegalArgumentException when the value is not three numbers joined by dots, or names an
     *                                  MLX older than {@link #FIRST_JACCL}, which has no jaccl
     */
    public static MlxVersion parse(String what, String value) {
        Matcher m = FORM.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException(what + ": \"" + Names.escape(value) + "\" is not an MLX version such as "
                    + NEWEST + " (MAJOR.MINOR.PATCH, as python -c 'import mlx.core as mx; print(mx.__version__)' prints)");
        }
        MlxVersion v = new MlxVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        if (v.before(FIRST_JACCL)) {
            throw new IllegalArgumentException(what + ": MLX " + v + " has no jaccl; it first shipped in MLX " + FIRST_JACCL);
        }
        return v;
    }

    /** @return true when this release is older than {@code other} */
    public boolean before(MlxVersion other) {
        return compareTo(other) < 0;
    }

    /** @return true when this release is {@code other} or newer */
    public boolean atLeast(MlxVersion other) {
        return compareTo(other) >= 0;
    }

    /** @return the variable that holds the devices file's path: {@code MLX_IBV_DEVICES}, except in 0.30.3 */
    public String devicesVariable() {
        return equals(DEVICES_VARIABLE_RENAMED) ? "MLX_JACCL_DEVICES" : "MLX_IBV_DEVICES";
    }

    /**
     * @return true when jaccl parses a cell written as a JSON array; before {@link #RING}
     *         ({@code jaccl.cpp}, {@code load_device_names}) it assigns each non-null cell to a string,
     *         which throws for an array, even {@code []} or {@code ["x"]}
     */
    public boolean readsArrayCells() {
        return atLeast(RING);
    }

    /**
     * @return true when mlx.launch reads a hostfile object ({@code {"backend", "envs", "hosts"}},
     *         {@code Hostfile.from_file}); before 0.30.6 {@code parse_hostfile} enumerates the top-level
     *         array of hosts, fails on an object, and takes the backend from {@code --backend} only
     */
    public boolean launchReadsHostfileObject() {
        return atLeast(RING);
    }

    /**
     * @return true when mlx.launch fails on a hostfile object without {@code backend} or {@code envs}
     *         ({@code Hostfile.from_file} reads {@code data["backend"]} and {@code data["envs"]}, 0.30.6
     *         to 0.32.0; 0.32.1 reads them with {@code data.get})
     */
    public boolean launchNeedsBackendAndEnvs() {
        return launchReadsHostfileObject() && before(HOSTFILE_KEYS_OPTIONAL);
    }

    /** @return true when jaccl reads the {@code JACCL_*} variables (before the {@code MLX_*} ones) */
    public boolean readsJacclVariables() {
        return atLeast(MULTI_NAME);
    }

    @Override
    public int compareTo(MlxVersion o) {
        return major != o.major ? Integer.compare(major, o.major)
                : minor != o.minor ? Integer.compare(minor, o.minor) : Integer.compare(patch, o.patch);
    }

    /** @return {@code MAJOR.MINOR.PATCH} */
    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
