package io.railmap.matrix.jaccl;

import java.util.List;
import java.util.Optional;

/**
 * The rules MLX jaccl applies to a devices matrix {@code cells[i][j][k]} (ranks × ranks × wires), per
 * MLX release ({@link MlxVersion}). Each method mirrors a function of the ml-explore/mlx repository;
 * the conformance tests ({@code JacclRulesTest}) state the rule they mirror. All methods expect a
 * square matrix.
 *
 * <ul>
 *   <li>0.30.1–0.30.5, {@code mlx/distributed/jaccl/jaccl.cpp}: {@code load_device_names} reads row
 *       {@code MLX_RANK} as strings (null is "no link"; an array cell throws), {@code init} builds the
 *       mesh and throws above {@code MAX_PEERS} = 8 ranks. There is no ring.</li>
 *   <li>0.30.6–0.31.1, {@code mlx/distributed/jaccl/jaccl.cpp}: {@code DeviceFile::is_valid_mesh}
 *       (every off-diagonal cell exactly one name, the diagonal none), {@code DeviceFile::is_valid_ring}
 *       ({@code devices[0][1]} not empty, both neighbour cells of every rank as long as it, every other
 *       cell empty), {@code init} (ring when {@code MLX_JACCL_RING} is set and the ring is valid, else
 *       mesh when valid, else ring when valid, else it throws).</li>
 *   <li>0.31.2 and newer, {@code mlx/distributed/jaccl/lib/jaccl/jaccl.cpp}:
 *       {@code Config::is_valid_mesh} (at least 2 ranks, every off-diagonal cell non-empty, the
 *       diagonal empty), {@code Config::is_valid_ring} (at least 2 ranks, both neighbour cells of every
 *       rank as long as {@code devices[0][1]}, which may be empty; other cells are not looked at),
 *       {@code init} (the same choice; a file valid as neither gives no group, and
 *       {@code mx.distributed.init()} falls back to a group of one unless strict).</li>
 *   <li>Point-to-point receive over several ring wires, before 0.32.0: {@code ring.cpp}
 *       {@code RingGroup::recv} (0.30.6) and {@code ring_impl.h} {@code RingImpl::recv} (0.31.0–0.31.2)
 *       prefill each wire's receives up to the message's end rather than the wire's own slice, so a
 *       wire can wait for frames that never come (fixed in 0.32.0, mlx pull request 3654).</li>
 *   <li>Group limits, {@code mesh.cpp} {@code MeshGroup::MeshGroup} and {@code ring.cpp}
 *       {@code RingGroup::RingGroup}: a mesh of more than {@value #MESH_MAX_PEERS} ranks and a ring of more
 *       than {@value #RING_MAX_CONNS} wires per direction throw ({@code mesh_impl.h},
 *       {@code ring_impl.h}).</li>
 * </ul>
 */
public final class JacclRules {
    /** jaccl's mesh connects at most this many ranks ({@code MESH_MAX_PEERS}). */
    public static final int MESH_MAX_PEERS = 8;
    /** jaccl's ring uses at most this many wires per direction ({@code RING_MAX_CONNS}). */
    public static final int RING_MAX_CONNS = 4;
    /**
     * Queue pairs one Thunderbolt RDMA device takes; the eleventh {@code ibv_create_qp} fails with
     * EBUSY (measured on macOS 26.5.1, mlx issue 3162 and pull request 4209).
     */
    public static final int THUNDERBOLT_MAX_QUEUE_PAIRS = 10;
    /**
     * Memory regions one connection of a mesh registers on its device in MLX 0.32.1 ({@code mesh.cpp}
     * {@code MeshGroup::allocate_buffers}): for each of {@code BUFFER_SIZES} = 8 sizes and
     * {@code NUM_BUFFERS} = 2 buffers ({@code rdma.h}), the rank's own send buffer, the receive
     * buffer of the connection's peer, and the peer's two scatter slots.
     */
    public static final int MESH_MEMORY_REGIONS_PER_CONNECTION = 8 * 2 * 4;
    /**
     * Memory regions one connection of a ring registers on its device in MLX 0.32.1 ({@code ring.cpp}
     * {@code RingGroup::allocate_buffers}): for each of 8 sizes and 2 buffers, one send and one receive
     * buffer per wire and direction.
     */
    public static final int RING_MEMORY_REGIONS_PER_CONNECTION = 8 * 2 * 2;

    private JacclRules() {
    }

    /**
     * jaccl's own test for a mesh, in release {@code version}.
     *
     * @param cells   a square matrix
     * @param version the MLX release
     * @return true when jaccl takes these cells as a valid mesh (the group may still throw: see {@link #init})
     */
    public static boolean isValidMesh(List<List<List<String>>> cells, MlxVersion version) {
        int n = cells.size();
        boolean oneName = version.before(MlxVersion.MULTI_NAME);
        if (!oneName && n < 2) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int size = cells.get(i).get(j).size();
                boolean ok = i == j ? size == 0 : oneName ? size == 1 : size > 0;
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * jaccl's own test for a ring, in release {@code version}; always false before
     * {@link MlxVersion#RING}. The rank order is the ring order.
     *
     * @param cells   a square matrix
     * @param version the MLX release
     * @return true when jaccl takes these cells as a valid ring (the group may still throw: see {@link #init})
     */
    public static boolean isValidRing(List<List<List<String>>> cells, MlxVersion version) {
        int n = cells.size();
        if (version.before(MlxVersion.RING) || n < 2) {
            return false;
        }
        int wires = cells.get(0).get(1).size();
        boolean strict = version.before(MlxVersion.MULTI_NAME);
        if (strict && wires == 0) {
            return false;
        }
        for (int r = 0; r < n; r++) {
            for (int s = 0; s < n; s++) {
                boolean neighbour = s == left(r, n) || s == right(r, n);
                int size = cells.get(r).get(s).size();
                if (neighbour ? size != wires : strict && size != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * What jaccl's {@code init} does with these cells: the group it chooses and whether that group
     * runs. A group that throws (a mesh above 8 ranks, a ring above 4 wires), a ring of no wires,
     * a ring of several wires before {@link MlxVersion#MULTI_WIRE_RING} (send/recv can hang), one rank, and a file valid as
     * neither are failures.
     *
     * @param cells      a square matrix
     * @param preferRing whether {@code MLX_JACCL_RING} (or {@code JACCL_RING}) is set
     * @param version    the MLX release
     * @return the outcome
     */
    public static JacclInit init(List<List<List<String>>> cells, boolean preferRing, MlxVersion version) {
        boolean mesh = isValidMesh(cells, version);
        boolean ring = isValidRing(cells, version);
        Optional<JacclMode> mode = preferRing && ring ? Optional.of(JacclMode.RING)
                : mesh ? Optional.of(JacclMode.MESH) : ring ? Optional.of(JacclMode.RING) : Optional.empty();
        return new JacclInit(mode, failure(cells, mode, version));
    }

    private static Optional<String> failure(List<List<List<String>>> cells, Optional<JacclMode> mode, MlxVersion version) {
        int n = cells.size();
        if (n < 2) {
            return Optional.of(version.atLeast(MlxVersion.MULTI_NAME)
                    ? "jaccl needs at least 2 ranks; with one, mx.distributed.init() quietly gives a group of one"
                    : "with one rank MLX " + version + "'s jaccl builds a mesh of that rank alone, a group of one that reaches no other host");
        }
        if (mode.isEmpty()) {
            return Optional.of("the devices file is valid as neither a mesh nor a ring, so jaccl "
                    + (version.atLeast(MlxVersion.MULTI_NAME)
                    ? "builds no group and mx.distributed.init() quietly gives a group of one (strict=True throws)"
                    : "throws at init"));
        }
        if (mode.get() == JacclMode.MESH) {
            return n > MESH_MAX_PEERS
                    ? Optional.of("jaccl chooses the mesh, which throws above " + MESH_MAX_PEERS + " ranks (" + n + " here)")
                    : Optional.empty();
        }
        int wires = cells.get(0).get(1).size();
        if (wires > RING_MAX_CONNS) {
            return Optional.of("jaccl chooses the ring, which throws above " + RING_MAX_CONNS + " wires per direction ("
                    + wires + " here)");
        }
        if (wires == 0) {
            return Optional.of("jaccl chooses a ring of no wires, which moves no data");
        }
        if (wires > 1 && version.before(MlxVersion.MULTI_WIRE_RING)) {
            return Optional.of("MLX " + version + "'s ring of several wires can hang in send/recv (a receive prefill"
                    + " deadlock, fixed in MLX " + MlxVersion.MULTI_WIRE_RING + ")");
        }
        return Optional.empty();
    }

    /**
     * The oldest MLX release from which on jaccl builds {@code mode} from these cells and runs it.
     *
     * @param cells a square matrix
     * @param mode  the group the cells are meant for
     * @return the release, or empty when even {@link MlxVersion#NEWEST} would not run it
     */
    public static Optional<MlxVersion> oldestRunning(List<List<List<String>>> cells, JacclMode mode) {
        List<MlxVersion> bands = List.of(MlxVersion.NEWEST, MlxVersion.MULTI_WIRE_RING, MlxVersion.MULTI_NAME,
                MlxVersion.RING, MlxVersion.FIRST_JACCL);
        Optional<MlxVersion> oldest = Optional.empty();
        for (MlxVersion v : bands) {
            if (!init(cells, mode == JacclMode.RING, v).runs(mode)) {
                break;
            }
            oldest = Optional.of(v);
        }
        return oldest;
    }

    /**
     * The connections jaccl opens on each RDMA device of one rank: each opens its own context, protection
     * domain, completion queue and one queue pair ({@code rdma.cpp} {@code create_connections}, which
     * gives an empty name no device; {@code mesh.cpp} {@code MeshGroup::initialize}: wire 0 of every other
     * rank's cell, from {@code Config::get_mesh_connectivity}; {@code ring.cpp} {@code RingGroup::initialize}:
     * every wire of the left cell, then every wire of the right one, from
     * {@code Config::get_ring_connectivity}, so with 2 ranks each device of the one neighbour cell twice).
     * MLX 0.31.2 to 0.32.1.
     *
     * @param cells a square matrix of at least 2 ranks
     * @param rank  the rank
     * @param mode  the group jaccl builds
     * @return device name → connections (= queue pairs = protection domains) on it, in name order
     */
    public static java.util.SortedMap<String, Integer> connections(List<List<List<String>>> cells, int rank, JacclMode mode) {
        int n = cells.size();
        List<String> opened = new java.util.ArrayList<>();
        if (mode == JacclMode.MESH) {
            for (int peer = 0; peer < n; peer++) {
                if (peer != rank && !cells.get(rank).get(peer).isEmpty()) {
                    opened.add(cells.get(rank).get(peer).get(0));
                }
            }
        } else if (n >= 2) {
            opened.addAll(cells.get(rank).get(left(rank, n)));
            opened.addAll(cells.get(rank).get(right(rank, n)));
        }
        java.util.SortedMap<String, Integer> out = new java.util.TreeMap<>();
        opened.stream().filter(name -> !name.isEmpty()).forEach(name -> out.merge(name, 1, Integer::sum));
        return out;
    }

    /**
     * @param mode the group
     * @return the memory regions one connection registers on its device, in MLX 0.32.1
     *         ({@link #MESH_MEMORY_REGIONS_PER_CONNECTION}, {@link #RING_MEMORY_REGIONS_PER_CONNECTION})
     */
    public static int memoryRegionsPerConnection(JacclMode mode) {
        return mode == JacclMode.MESH ? MESH_MEMORY_REGIONS_PER_CONNECTION : RING_MEMORY_REGIONS_PER_CONNECTION;
    }

    /** @return rank r's left neighbour in a ring of n ranks, {@code (r - 1) mod n} */
    public static int left(int r, int n) {
        return (r + n - 1) % n;
    }

    /** @return rank r's right neighbour in a ring of n ranks, {@code (r + 1) mod n} */
    public static int right(int r, int n) {
        return (r + 1) % n;
    }
}
