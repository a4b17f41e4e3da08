package io.railmap.matrix.job;

import io.railmap.matrix.codec.RingHostsCodec;
import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.RingEntry;
import io.railmap.matrix.model.Snapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Assembles jobs from the local ranks each node's daemon found (docs/jobs.md): a rank belongs to the
 * first of these that its settings give.
 * <ol>
 * <li>{@link JobKind#JACCL}: its coordinator address, {@code JACCL_COORDINATOR} before
 *     {@code MLX_JACCL_COORDINATOR} (jaccl reads the {@code JACCL_*} names first from MLX 0.31.2,
 *     {@code lib/jaccl/jaccl.cpp}, {@code Config::from_env}); its rank {@code JACCL_RANK}, else
 *     {@code MLX_RANK}; its size the length of its devices row.</li>
 * <li>{@link JobKind#MLX_RING}: the digest of the hostfile {@code MLX_HOSTFILE} names; its rank
 *     {@code MLX_RANK} as the ring backend reads it ({@code atoi}: {@link RingHostsCodec#mlxRank}); its size
 *     the hostfile's entries ({@link RingEntry#ranks()}).</li>
 * <li>A process with a setting of NCCL, UCX, ModelExpress or NVSHMEM: {@link JobKind#LAUNCHER} by its
 *     launcher's job id, {@code SLURM_JOB_ID} with {@code SLURM_STEP_ID} (Slurm's {@code srun}), else
 *     {@code PMIX_NAMESPACE} (Open MPI's {@code mpirun}/{@code prterun}, PMIx launchers); its rank
 *     {@code SLURM_PROCID}, else {@code PMIX_RANK}, else {@code OMPI_COMM_WORLD_RANK}. Without a job id,
 *     {@link JobKind#SETTINGS}: the processes with the same library settings. The settings are not part of
 *     a launcher job's identity: railmap's own settings differ per node (each node's NIC names).</li>
 * </ol>
 * A process with none of these is no rank of any job.
 *
 * <p>Bounds: at most {@value #MAX_RANKS} ranks are read in all and {@value #MAX_JOBS} jobs held, each
 * of at most {@value #MAX_RANKS_PER_JOB} ranks; ranks past a bound are counted, not kept. Which ones stay
 * does not depend on the map's order: nodes are read in natural order, each node's ranks by start, then
 * pid.
 *
 * <p>Cost: O(R log R) time and O(R) memory for R ranks read, besides the ranks themselves.
 */
public final class Jobs {
    /**
     * Ranks read in all: a cluster of 512 nodes with 16 ranks each. Each daemon publishes a bounded
     * number of its own; this bounds what one check holds whatever the records say.
     */
    public static final int MAX_RANKS = 8192;
    /**
     * Jobs held: several jobs a node on a cluster of a hundred nodes; past it, a job's ranks are counted
     * as left out. A job is checked once per change of the cables or the ranks, so this bounds that work.
     */
    public static final int MAX_JOBS = 256;
    /**
     * Ranks of one job, and the highest rank number taken (one less): a jaccl job's devices matrix has
     * ranks² cells (a million at this bound), and jaccl's mesh takes 8 ranks, its ring a few dozen Macs.
     */
    public static final int MAX_RANKS_PER_JOB = 1024;
    /**
     * The characters of a job id before a value from a process's settings (a coordinator address, a job id)
     * is cut: an id is a line's first column in {@code railmap jobs} and a key of the API's answer.
     */
    public static final int MAX_ID_CHARS = 160;
    /** Hex digits of a digest shown in an id: 64 bits, ample to tell jobs apart on one cluster. */
    static final int ID_DIGEST_CHARS = 16;

    /** Variables of the libraries checked by {@code check --env} whose ranks are launcher jobs. */
    static final List<String> LIBRARY_VARIABLES = List.of("MX_RDMA_NIC_PIN", "NCCL_CROSS_NIC", "NCCL_IB_HCA",
            "NCCL_IB_SUBNET_AWARE_ROUTING", "NVSHMEM_ENABLE_NIC_PE_MAPPING", "NVSHMEM_HCA_LIST", "UCX_MAX_RMA_RAILS",
            "UCX_NET_DEVICES");

    private Jobs() {
    }

    /**
     * What {@link #assemble} made.
     *
     * @param jobs        the jobs, by id in natural order
     * @param ranksLeftOut how many ranks of some job were not kept (over {@link #MAX_RANKS},
     *                     {@link #MAX_JOBS} or {@link #MAX_RANKS_PER_JOB})
     * @param jobsLeftOut how many jobs were not kept (over {@link #MAX_JOBS})
     */
    public record Assembly(List<Job> jobs, int ranksLeftOut, int jobsLeftOut) {
        /** Copies the jobs. */
        public Assembly {
            jobs = List.copyOf(jobs);
        }

        /** @return the job of an id, if held */
        public Optional<Job> job(String id) {
            return jobs.stream().filter(j -> j.id().equals(id)).findFirst();
        }
    }

    /**
     * @param snapshot records, each with the ranks its node published ({@link NodeRecord#ranks()})
     * @return those ranks by node, for {@link #assemble}
     */
    public static Map<String, List<LocalRank>> ranks(Snapshot snapshot) {
        Map<String, List<LocalRank>> out = new LinkedHashMap<>();
        snapshot.records().forEach(r -> out.put(r.node(), r.ranks()));
        return out;
    }

    /** What defines a rank's job. */
    private record Key(JobKind kind, String id) {
    }

    /**
     * @param ranksByNode each node's local ranks (its record's), by node name
     * @return the jobs those ranks make, bounded as above
     * @throws NullPointerException when a node, list or rank is null
     */
    public static Assembly assemble(Map<String, List<LocalRank>> ranksByNode) {
        TreeMap<String, List<LocalRank>> nodes = new TreeMap<>(NaturalOrder.INSTANCE);
        nodes.putAll(ranksByNode);
        Map<Key, List<JobRank>> jobs = new LinkedHashMap<>();
        Set<Key> leftOutJobs = new HashSet<>();
        int read = 0;
        int ranksLeftOut = 0;
        for (Map.Entry<String, List<LocalRank>> node : nodes.entrySet()) {
            List<LocalRank> local = new ArrayList<>(node.getValue());
            local.sort(Comparator.comparingLong(LocalRank::startedMs).thenComparingLong(LocalRank::pid));
            for (LocalRank process : local) {
                Optional<Key> key = key(process);
                if (key.isEmpty()) {
                    continue;
                }
                if (read == MAX_RANKS) {
                    ranksLeftOut++;
                    continue;
                }
                read++;
                List<JobRank> ranks = jobs.get(key.get());
                if (ranks == null && jobs.size() == MAX_JOBS) {
                    leftOutJobs.add(key.get());
                    ranksLeftOut++;
                    continue;
                }
                if (ranks == null) {
                    ranks = new ArrayList<>();
                    jobs.put(key.get(), ranks);
                }
                if (ranks.size() == MAX_RANKS_PER_JOB) {
                    ranksLeftOut++;
                    continue;
                }
                ranks.add(new JobRank(rank(key.get().kind(), process), node.getKey(), process));
            }
        }
        List<Job> out = new ArrayList<>();
        jobs.forEach((key, ranks) -> out.add(new Job(key.id(), key.kind(), size(key.kind(), ranks), ranks)));
        out.sort(Comparator.comparing(Job::id, NaturalOrder.INSTANCE));
        return new Assembly(out, ranksLeftOut, leftOutJobs.size());
    }

    private static Optional<Key> key(LocalRank p) {
        Optional<String> coordinator = p.setting("JACCL_COORDINATOR").or(() -> p.setting("MLX_JACCL_COORDINATOR"));
        if (coordinator.isPresent()) {
            return Optional.of(new Key(JobKind.JACCL, id("jaccl", coordinator.get())));
        }
        if (p.hostfile().isPresent()) {
            return Optional.of(new Key(JobKind.MLX_RING, "mlx-ring " + p.hostfile().get().substring(0, ID_DIGEST_CHARS)));
        }
        if (LIBRARY_VARIABLES.stream().noneMatch(p.settings()::containsKey)) {
            return Optional.empty();
        }
        Optional<String> slurm = p.setting("SLURM_JOB_ID");
        if (slurm.isPresent()) {
            return Optional.of(new Key(JobKind.LAUNCHER, id("slurm", slurm.get() + p.setting("SLURM_STEP_ID").map(s -> "." + s).orElse(""))));
        }
        Optional<String> pmix = p.setting("PMIX_NAMESPACE");
        if (pmix.isPresent()) {
            return Optional.of(new Key(JobKind.LAUNCHER, id("pmix", pmix.get())));
        }
        StringBuilder settings = new StringBuilder();
        LIBRARY_VARIABLES.forEach(v -> p.setting(v).ifPresent(value -> settings.append(v).append('=').append(value).append('\n')));
        return Optional.of(new Key(JobKind.SETTINGS, "settings " + sha256(settings.toString()).substring(0, ID_DIGEST_CHARS)));
    }

    private static String id(String kind, String value) {
        return kind + " " + Names.escape(value, MAX_ID_CHARS - kind.length() - 1);
    }

    private static Optional<Integer> rank(JobKind kind, LocalRank p) {
        List<String> names = switch (kind) {
            case JACCL -> List.of("JACCL_RANK", "MLX_RANK");
            case MLX_RING -> List.of("MLX_RANK");
            case LAUNCHER, SETTINGS -> List.of("SLURM_PROCID", "PMIX_RANK", "OMPI_COMM_WORLD_RANK");
        };
        if (kind == JobKind.MLX_RING) {
            // the ring backend's own reading of MLX_RANK (atoi), so that the number is the entry the rank published
            return p.setting("MLX_RANK").flatMap(t -> {
                java.util.OptionalInt n = RingHostsCodec.mlxRank(t);
                return n.isPresent() && n.getAsInt() < MAX_RANKS_PER_JOB ? Optional.of(n.getAsInt()) : Optional.empty();
            });
        }
        return names.stream().flatMap(n -> p.setting(n).stream()).findFirst().flatMap(Jobs::rankNumber);
    }

    /** @return the number, when the text is decimal digits naming 0 to {@link #MAX_RANKS_PER_JOB} − 1 */
    static Optional<Integer> rankNumber(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.length() > 4 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        int n = Integer.parseInt(t);
        return n < MAX_RANKS_PER_JOB ? Optional.of(n) : Optional.empty();
    }

    /**
     * A jaccl job's size: the longest devices row of its ranks (rows of other lengths are findings of the check);
     * an mlx-ring job's: the entries of its hostfile, as a rank's ring entry says (its ranks share the file).
     */
    private static Optional<Integer> size(JobKind kind, List<JobRank> ranks) {
        return switch (kind) {
            case JACCL -> ranks.stream().flatMap(r -> r.process().devices().stream()).map(List::size).max(Integer::compare);
            case MLX_RING -> ranks.stream().flatMap(r -> r.process().ring().stream()).map(RingEntry::ranks).max(Integer::compare);
            case LAUNCHER, SETTINGS -> Optional.empty();
        };
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
