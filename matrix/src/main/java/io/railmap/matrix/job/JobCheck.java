package io.railmap.matrix.job;

import io.railmap.matrix.check.Checker;
import io.railmap.matrix.check.MlxRingCheck;
import io.railmap.matrix.check.Mode;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.library.ComputeNics;
import io.railmap.matrix.library.EnvCheck;
import io.railmap.matrix.library.NodeNics;
import io.railmap.matrix.library.SettingsOptions;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Checks running jobs against the cables as they are now, with the code of {@code railmap check}
 * ({@link Checker}) and {@code railmap check --env} ({@link EnvCheck}), and names the job, its ranks,
 * nodes and pids in each finding (docs/jobs.md, docs/check.md).
 *
 * <ul>
 * <li>{@link JobKind#JACCL}: first whether the job is whole ({@code job-incomplete}: a rank without a
 *     rank number or devices row, a row of another length than the others, a rank number at or past the
 *     size, a number claimed twice, ranks missing); then the devices matrix, row i from the process of
 *     rank i, is checked as {@code railmap check} checks a devices file, with the ranks' nodes as hosts,
 *     as a ring when a rank sets {@code MLX_JACCL_RING} or {@code JACCL_RING} (jaccl runs the ring when
 *     the variable exists at all), else as jaccl chooses. Its {@code mismatched-rail} is
 *     {@code job-rail-mismatch}, as is a {@code not-a-cable} whose ends are both cabled (to a third node);
 *     {@code unknown-device}, {@code link-down} and a {@code not-a-cable} with an end that has no cable now
 *     are {@code job-stale}; other errors and warnings keep their codes.</li>
 * <li>{@link JobKind#LAUNCHER} and {@link JobKind#SETTINGS}: each node's settings, once per distinct
 *     settings, as {@code check --env} checks a file for that node; a device, netdev or port that is
 *     gone or down ({@code unknown-hca}, {@code unknown-device}, {@code link-down}) is {@code job-stale}.
 *     A rank number claimed twice is {@code job-incomplete}.</li>
 * <li>{@link JobKind#MLX_RING}: first whether the job is whole ({@code job-incomplete}: a rank without a
 *     rank number, one at or past the hostfile's entries, a number claimed twice, ranks missing); then its
 *     hostfile is put together again, entry r from the ring entry ({@code LocalRank#ring}) of the process of
 *     rank r, on its node, and checked as {@code railmap check FILE --mode mlx-ring --hosts NODES} checks it
 *     ({@link MlxRingCheck}), codes mapped as for jaccl ({@code unknown-address} is {@code job-stale});
 *     {@code shared-subnet}, {@code same-cable-twice} and the others keep their codes. A rank that published
 *     no entry (its file unreadable, or a host name in it) makes the job {@code job-unchecked}.</li>
 * </ul>
 * Infos of the checks (what a job does not use, a mode jaccl will not choose) are left out: a running
 * job's verdict says what will fail or is not as meant. A rank whose node has no record now is
 * {@code job-stale}; two ranks of a jaccl job on one node are {@code job-unchecked} (railmap places a rank
 * per node).
 *
 * <p>Cost: a jaccl job costs what {@link Checker} costs for its matrix, O(ranks² + names); an mlx-ring job
 * what {@link MlxRingCheck} costs, O(ranks × addresses × ports); a launcher
 * job one {@link EnvCheck} per node and distinct settings.
 */
public final class JobCheck {
    /** How many ranks a sentence names before it counts the rest. */
    static final int RANKS_NAMED = 4;
    /** The checks' codes that mean a named device, port or cable is gone or down now. */
    private static final Set<Code> STALE = EnumSet.of(Code.UNKNOWN_DEVICE, Code.UNKNOWN_HCA, Code.UNKNOWN_ADDRESS, Code.LINK_DOWN);
    /** Why a ring rank may publish no hostfile entry, for messages. */
    private static final String NO_ENTRY = " (the file could not be read, or the entry holds what railmap does not publish, such as a"
            + " host name: railmap check FILE --mode mlx-ring --hosts NODES checks the file itself)";

    private JobCheck() {
    }

    /**
     * The jobs of a snapshot's ranks and their verdicts.
     *
     * @param verdicts     a verdict per job held, by job id
     * @param ranksLeftOut ranks not held ({@link Jobs.Assembly#ranksLeftOut()})
     * @param jobsLeftOut  jobs not held ({@link Jobs.Assembly#jobsLeftOut()})
     */
    public record Report(List<JobVerdict> verdicts, int ranksLeftOut, int jobsLeftOut) {
        /** Copies the verdicts. */
        public Report {
            verdicts = List.copyOf(verdicts);
        }
    }

    /**
     * @param snapshot the records: their ranks ({@link Jobs#ranks}) and their cables
     * @param version  the MLX release whose jaccl the jaccl jobs run
     * @return every job the ranks make, checked against the snapshot's cables
     */
    public static Report check(Snapshot snapshot, MlxVersion version) {
        Jobs.Assembly assembly = Jobs.assemble(Jobs.ranks(snapshot));
        return new Report(check(assembly.jobs(), Topology.of(snapshot), version), assembly.ranksLeftOut(), assembly.jobsLeftOut());
    }

    /**
     * @param jobs     the jobs ({@link Jobs#assemble})
     * @param topology the cables as they are now
     * @param version  the MLX release whose jaccl the jaccl jobs run (its rules)
     * @return a verdict per job, in the jobs' order
     */
    public static List<JobVerdict> check(List<Job> jobs, Topology topology, MlxVersion version) {
        Supplier<RailTable> rails = memo(() -> RailTable.of(topology));
        return jobs.stream().map(job -> check(job, topology, rails, version)).toList();
    }

    private static JobVerdict check(Job job, Topology topology, Supplier<RailTable> rails, MlxVersion version) {
        List<Finding> findings = new ArrayList<>(duplicates(job));
        switch (job.kind()) {
            case JACCL -> findings.addAll(jaccl(job, topology, version));
            case LAUNCHER, SETTINGS -> findings.addAll(env(job, topology, rails));
            case MLX_RING -> findings.addAll(ring(job, topology));
        }
        findings.sort(Comparator.comparing(Finding::severity));
        return new JobVerdict(job, findings);
    }

    /** job-incomplete for each rank number claimed by several processes. */
    private static List<Finding> duplicates(Job job) {
        Map<Integer, List<JobRank>> byNumber = new TreeMap<>();
        job.ranks().forEach(r -> r.rank().ifPresent(n -> byNumber.computeIfAbsent(n, x -> new ArrayList<>()).add(r)));
        List<Finding> out = new ArrayList<>();
        byNumber.forEach((n, claimants) -> {
            if (claimants.size() > 1) {
                out.add(new Finding(Code.JOB_INCOMPLETE, Severity.ERROR, List.of(n), Optional.empty(), "job " + job.id() + ": rank "
                        + n + " is claimed by " + claimants.size() + " processes (" + ranks(claimants) + "): the job cannot connect"
                        + " as launched, or one of them is left from an earlier run"));
            }
        });
        return out;
    }

    private static List<Finding> jaccl(Job job, Topology topology, MlxVersion version) {
        List<Finding> out = new ArrayList<>();
        int n = job.size().orElse(0);
        for (JobRank r : job.ranks()) {
            if (r.rank().isEmpty()) {
                out.add(incomplete(job, r, r.describe() + " has no rank number (JACCL_RANK or MLX_RANK unset, or no number below "
                        + Jobs.MAX_RANKS_PER_JOB + ")"));
            } else if (r.process().devices().isEmpty()) {
                out.add(incomplete(job, r, r.describe() + " has no devices row: the file MLX_IBV_DEVICES or JACCL_IBV_DEVICES names"
                        + " could not be read or parsed"));
            } else if (r.process().devices().get().size() != n) {
                out.add(incomplete(job, r, r.describe() + "'s devices row has " + r.process().devices().get().size()
                        + " cells but another rank's has " + n + ": the ranks were started with different devices files"));
            } else if (r.rank().get() >= n) {
                out.add(incomplete(job, r, r.describe() + " is past the job's " + n + " ranks (its devices row has " + n + " cells)"));
            }
        }
        if (n == 0) {
            out.add(new Finding(Code.JOB_INCOMPLETE, Severity.ERROR, List.of(), Optional.empty(), "job " + job.id()
                    + ": no rank has a devices row, so the job's size is not known; found " + ranks(job.ranks())));
            return out;
        }
        JobRank[] byRank = whole(job, n, out);
        if (byRank == null) {
            return out;
        }
        Optional<Finding> unplaced = unplaced(job, byRank, topology);
        if (unplaced.isPresent()) {
            return List.of(unplaced.get());
        }
        List<String> nodes = Arrays.stream(byRank).map(JobRank::node).toList();
        List<List<List<String>>> cells = Arrays.stream(byRank).map(r -> r.process().devices().get()).toList();
        boolean ring = job.ranks().stream().anyMatch(r -> r.process().setting("MLX_JACCL_RING").isPresent()
                || r.process().setting("JACCL_RING").isPresent());
        return named(job, byRank, Checker.check(topology, nodes, cells, ring ? Mode.RING : Mode.AUTO, version), topology);
    }

    /**
     * An mlx-ring job: whole (every entry of its hostfile has its rank), then its hostfile put together again from
     * its ranks' entries (entry r from the process of rank r, on its node) and checked as {@code railmap check
     * --mode mlx-ring} checks the file MLX_HOSTFILE names with {@code --hosts} the ranks' nodes.
     */
    private static List<Finding> ring(Job job, Topology topology) {
        List<Finding> out = new ArrayList<>();
        for (JobRank r : job.ranks()) {
            if (r.rank().isEmpty()) {
                out.add(incomplete(job, r, r.describe() + " has no rank number (MLX_RANK unset, negative, or no number below "
                        + Jobs.MAX_RANKS_PER_JOB + ")"));
            } else if (job.size().isPresent() && r.rank().get() >= job.size().get()) {
                out.add(incomplete(job, r, r.describe() + " is past the job's " + job.size().get() + " ranks (its hostfile has "
                        + job.size().get() + " entries): the ring backend refuses it"));
            }
        }
        if (job.size().isEmpty()) {
            out.add(new Finding(Code.JOB_UNCHECKED, Severity.INFO, List.of(), Optional.empty(), "job " + job.id() + ", "
                    + ranks(job.ranks()) + ": no rank published its entry of the hostfile MLX_HOSTFILE names, so its cables are not"
                    + " checked" + NO_ENTRY));
            return out;
        }
        JobRank[] byRank = whole(job, job.size().get(), out);
        if (byRank == null) {
            return out;
        }
        List<JobRank> without = Arrays.stream(byRank).filter(r -> r.process().ring().isEmpty()).toList();
        if (!without.isEmpty()) {
            return List.of(new Finding(Code.JOB_UNCHECKED, Severity.INFO, without.stream().flatMap(r -> r.rank().stream()).toList(),
                    Optional.empty(), "job " + job.id() + ", " + ranks(without) + ": published no entry of the hostfile MLX_HOSTFILE"
                    + " names, so the job's cables are not checked" + NO_ENTRY));
        }
        Optional<Finding> unplaced = unplaced(job, byRank, topology);
        if (unplaced.isPresent()) {
            return List.of(unplaced.get());
        }
        List<String> nodes = Arrays.stream(byRank).map(JobRank::node).toList();
        List<List<String>> ips = Arrays.stream(byRank).map(r -> r.process().ring().get().ips()).toList();
        return named(job, byRank, MlxRingCheck.check(topology, nodes, ips, (r, k) -> "MLX_HOSTFILE[" + r + "][" + k + "]"), topology);
    }

    /**
     * @param n   the job's size
     * @param out where a {@code job-incomplete} for the ranks not found goes
     * @return rank i's process at i; null when ranks are missing, past the size or claimed twice (the job is not whole)
     */
    private static JobRank[] whole(Job job, int n, List<Finding> out) {
        List<Integer> missing = new ArrayList<>();
        JobRank[] byRank = new JobRank[n];
        for (JobRank r : job.ranks()) {
            if (r.rank().isPresent() && r.rank().get() < n && byRank[r.rank().get()] == null) {
                byRank[r.rank().get()] = r;
            }
        }
        for (int i = 0; i < n; i++) {
            if (byRank[i] == null) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            out.add(new Finding(Code.JOB_INCOMPLETE, Severity.ERROR, List.of(), Optional.empty(), "job " + job.id() + ": found "
                    + (n - missing.size()) + " of its " + n + " ranks; rank" + (missing.size() == 1 ? " " : "s ") + numbers(missing)
                    + " not found (not started, ended, or on a node whose daemon does not publish its ranks); found " + ranks(job.ranks())));
        }
        boolean claimedTwice = job.ranks().stream().flatMap(r -> r.rank().stream()).distinct().count()
                < job.ranks().stream().filter(r -> r.rank().isPresent()).count();
        return out.isEmpty() && !claimedTwice ? byRank : null;
    }

    /** @return job-unchecked when two ranks run on one node, job-stale when a rank's node has no record now */
    private static Optional<Finding> unplaced(Job job, JobRank[] byRank, Topology topology) {
        Set<String> seen = new java.util.HashSet<>();
        for (JobRank r : byRank) {
            if (!seen.add(r.node())) {
                return Optional.of(new Finding(Code.JOB_UNCHECKED, Severity.INFO, List.of(), Optional.empty(), "job " + job.id() + ", "
                        + ranks(job.ranks()) + ": two ranks run on " + Names.escape(r.node()) + ", and railmap checks one rank per node"));
            }
            if (!topology.hasNode(r.node())) {
                return Optional.of(new Finding(Code.JOB_STALE, Severity.ERROR, r.rank().map(List::of).orElse(List.of()), Optional.empty(),
                        "job " + job.id() + ", " + r.describe() + ": node " + Names.escape(r.node()) + " has no record now, so its cables"
                        + " are not known"));
            }
        }
        return Optional.empty();
    }

    /** The check's errors and warnings, as the job's: its code ({@link #jobCode}), the job and the ranks it names. */
    private static List<Finding> named(Job job, JobRank[] byRank, List<Finding> findings, Topology topology) {
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings) {
            if (f.severity() == Severity.INFO) {
                continue;
            }
            List<JobRank> named = f.ranks().stream().map(i -> byRank[i]).toList();
            out.add(new Finding(jobCode(f, topology), f.severity(), f.ranks(), f.rail(), f.ports(), "job " + job.id() + ", "
                    + ranks(named.isEmpty() ? job.ranks() : named) + ": " + f.message()));
        }
        return out;
    }

    /**
     * A check's code for a running job: a {@code mismatched-rail}, or a {@code not-a-cable} whose ends are both
     * cabled (to a third node), is {@code job-rail-mismatch}; a {@code not-a-cable} with an end that has no cable
     * now, and what names a device, address or port gone or down ({@link #STALE}), is {@code job-stale}; any other
     * keeps its code.
     */
    private static Code jobCode(Finding f, Topology topology) {
        if (f.code() == Code.MISMATCHED_RAIL) {
            return Code.JOB_RAIL_MISMATCH;
        }
        if (f.code() == Code.NOT_A_CABLE) {
            boolean uncabled = f.ports().stream().limit(2).anyMatch(p -> topology.cableAt(p).isEmpty());
            return uncabled ? Code.JOB_STALE : Code.JOB_RAIL_MISMATCH;
        }
        return STALE.contains(f.code()) ? Code.JOB_STALE : f.code();
    }

    private static List<Finding> env(Job job, Topology topology, Supplier<RailTable> rails) {
        Map<String, Map<Map<String, String>, List<JobRank>>> byNode = new LinkedHashMap<>();
        for (JobRank r : job.ranks()) {
            Map<String, String> vars = new TreeMap<>();
            Jobs.LIBRARY_VARIABLES.forEach(v -> r.process().setting(v).ifPresent(value -> vars.put(v, value)));
            byNode.computeIfAbsent(r.node(), x -> new LinkedHashMap<>()).computeIfAbsent(vars, x -> new ArrayList<>()).add(r);
        }
        List<Finding> out = new ArrayList<>();
        new TreeMap<>(byNode).forEach((node, groups) -> groups.forEach((vars, ranks) -> {
            List<Integer> numbers = ranks.stream().flatMap(r -> r.rank().stream()).distinct().toList();
            String who = "job " + job.id() + ", " + ranks(ranks) + ": ";
            if (!topology.hasNode(node)) {
                out.add(new Finding(Code.JOB_STALE, Severity.ERROR, numbers, Optional.empty(), who + "node " + Names.escape(node)
                        + " has no record now, so its NICs are not known"));
                return;
            }
            NodeNics nics = ComputeNics.of(topology, rails.get(), node, SettingsOptions.DEFAULTS);
            for (Finding f : EnvCheck.check(nics, vars)) {
                if (f.severity() != Severity.INFO) {
                    out.add(new Finding(STALE.contains(f.code()) ? Code.JOB_STALE : f.code(), f.severity(), numbers, f.rail(), f.ports(),
                            who + f.message()));
                }
            }
        }));
        return out;
    }

    private static Finding incomplete(Job job, JobRank r, String why) {
        return new Finding(Code.JOB_INCOMPLETE, Severity.ERROR, r.rank().map(List::of).orElse(List.of()), Optional.empty(),
                "job " + job.id() + ": " + why);
    }

    /** @return the first {@link #RANKS_NAMED} ranks described, then how many more */
    static String ranks(List<JobRank> ranks) {
        List<String> named = ranks.stream().limit(RANKS_NAMED).map(JobRank::describe).toList();
        String text = named.size() == 2 && ranks.size() == 2 ? named.get(0) + " and " + named.get(1) : String.join(", ", named);
        return ranks.size() > RANKS_NAMED ? text + " and " + (ranks.size() - RANKS_NAMED) + " more" : text;
    }

    private static String numbers(List<Integer> numbers) {
        List<String> shown = numbers.stream().limit(8).map(String::valueOf).toList();
        return String.join(", ", shown) + (numbers.size() > 8 ? " and " + (numbers.size() - 8) + " more" : "");
    }

    private static <T> Supplier<T> memo(Supplier<T> make) {
        List<T> held = new ArrayList<>(1);
        return () -> {
            if (held.isEmpty()) {
                held.add(make.get());
            }
            return held.get(0);
        };
    }
}
