package io.railmap.matrix.job;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.jaccl.MlxVersion;
import java.util.List;

/**
 * The running jobs and their verdicts ({@link JobCheck.Report}) as JSON: the one document of
 * {@code GET /v1/jobs} and {@code railmap jobs --json}, written by Jackson in this order:
 *
 * <pre>
 * {"mlxVersion": "0.32.1", "jobs": [job, ...], "ranksLeftOut": 0, "jobsLeftOut": 0}
 * job:  {"id": "jaccl 10.0.0.1:32323", "kind": "jaccl", "size": 2 | null, "verdict": "error",
 *        "nodes": ["a", "b"], "ranks": [rank, ...], "findings": [finding, ...]}
 * rank: {"rank": 0 | null, "node": "a", "pid": 4242, "startedMs": 1764400000000}
 * </pre>
 * A finding is {@link FindingJson}. No setting of a rank's process is written, only what places it.
 *
 * @param mlxVersion   the MLX release whose jaccl rules the jaccl jobs are checked by
 * @param jobs         each job held, by id
 * @param ranksLeftOut ranks past the bounds ({@link Jobs#MAX_RANKS}, {@link Jobs#MAX_JOBS},
 *                     {@link Jobs#MAX_RANKS_PER_JOB}), counted and not shown
 * @param jobsLeftOut  jobs past {@link Jobs#MAX_JOBS}
 */
@JsonPropertyOrder({"mlxVersion", "jobs", "ranksLeftOut", "jobsLeftOut"})
public record JobsJson(String mlxVersion, List<JobJson> jobs, int ranksLeftOut, int jobsLeftOut) {
    /** @return the report's JSON */
    public static JobsJson of(JobCheck.Report report, MlxVersion version) {
        return new JobsJson(version.toString(), report.verdicts().stream().map(JobJson::of).toList(), report.ranksLeftOut(),
                report.jobsLeftOut());
    }

    /** @return the report as indented JSON, ending with a newline */
    public static String render(JobCheck.Report report, MlxVersion version) {
        return JsonText.write(of(report, version));
    }

    /**
     * One job.
     *
     * @param id       its stable name: its kind and what defines it ({@code jaccl 10.0.0.1:32323}, {@code slurm 812.0})
     * @param kind     {@code jaccl}, {@code mlx-ring}, {@code launcher} or {@code settings} ({@link JobKind})
     * @param size     its ranks as its settings say (a jaccl rank's devices row); null when they do not say
     * @param verdict  {@code error}, {@code warning}, {@code unchecked} or {@code ok} ({@link JobVerdict#verdict()})
     * @param nodes    the nodes its ranks run on
     * @param ranks    its ranks, by rank number
     * @param findings what the check found, errors first
     */
    @JsonPropertyOrder({"id", "kind", "size", "verdict", "nodes", "ranks", "findings"})
    public record JobJson(String id, String kind, Integer size, String verdict, List<String> nodes, List<RankJson> ranks,
                          List<FindingJson> findings) {
        static JobJson of(JobVerdict v) {
            return new JobJson(v.job().id(), v.job().kind().externalName(), v.job().size().orElse(null), v.verdict(), v.job().nodes(),
                    v.job().ranks().stream().map(RankJson::of).toList(), FindingJson.of(v.findings()));
        }
    }

    /**
     * One rank of a job: no setting of the process, only what places it.
     *
     * @param rank      its rank number; null when its settings give none
     * @param node      the node it runs on
     * @param pid       its process id on that node
     * @param startedMs when it started, ms since the Unix epoch
     */
    @JsonPropertyOrder({"rank", "node", "pid", "startedMs"})
    public record RankJson(Integer rank, String node, long pid, long startedMs) {
        static RankJson of(JobRank r) {
            return new RankJson(r.rank().orElse(null), r.node(), r.pid(), r.process().startedMs());
        }
    }
}
