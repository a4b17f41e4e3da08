package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.options.MlxVersionOption;
import io.railmap.cli.options.OutputFormat;
import io.railmap.cli.options.SnapshotOptions;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.job.JobCheck;
import io.railmap.matrix.job.JobRank;
import io.railmap.matrix.job.JobVerdict;
import io.railmap.matrix.job.Jobs;
import io.railmap.matrix.job.JobsJson;
import io.railmap.matrix.model.Names;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code railmap jobs}: the collective jobs running on the nodes, from the ranks the records publish,
 * each checked against the cables ({@link JobCheck}): one line per job, then the findings; or, with {@code --json},
 * the document {@code GET /v1/jobs} answers ({@link JobsJson}).
 */
@Command(mixinStandardHelpOptions = true, name = "jobs", sortOptions = false,
        description = {"List the collective jobs running on the nodes, as their daemons found their ranks (jaccl jobs by coordinator, "
                + "MLX ring jobs by hostfile, NCCL, UCX, ModelExpress and NVSHMEM jobs by launcher job id), each checked against the "
                + "cables as they are now with the code of railmap check and check --env: one line per job (job, ranks, nodes, "
                + "verdict), then the findings (job-rail-mismatch, job-stale, job-incomplete, ...). Exits 2 when a job has an "
                + "error. Asks the local daemon unless told otherwise."},
        footer = {"", "Examples:",
            "  railmap jobs",
            "  railmap jobs --lab a",
            "  railmap jobs --json",
            "  railmap jobs --snapshot cluster.json --mlx-version 0.31.2"})
public final class JobsCommand implements Callable<Integer> {
    /** How many ranks a line names before it counts the rest. */
    static final int RANKS_SHOWN = 8;

    @Spec
    CommandSpec spec;

    @Mixin
    SnapshotOptions source;

    @Mixin
    MlxVersionOption mlxVersion;

    @Mixin
    OutputFormat format = new OutputFormat("Print the jobs as JSON: the document GET /v1/jobs answers (mlxVersion, jobs with their "
            + "id, kind, size, verdict, nodes, ranks and findings, ranksLeftOut, jobsLeftOut).");

    @Override
    public Integer call() {
        boolean json = format.json();
        MlxVersion version = mlxVersion.version();
        JobCheck.Report report = JobCheck.check(source.load(), version);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? JobsJson.render(report, version) : text(report));
        out.flush();
        return report.verdicts().stream().anyMatch(v -> v.verdict().equals("error")) ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /** The report as a table of jobs, then each job's findings, then what was left out. */
    static String text(JobCheck.Report report) {
        StringBuilder out = new StringBuilder();
        if (report.verdicts().isEmpty()) {
            out.append("no running job: no record publishes a rank\n");
        } else {
            TextTable table = new TextTable("JOB", "RANKS", "NODES", "VERDICT");
            for (JobVerdict v : report.verdicts()) {
                table.row(v.job().id(), ranks(v.job().ranks()), nodes(v.job().nodes()), v.verdict());
            }
            out.append(table.render());
            report.verdicts().forEach(v -> v.findings().forEach(f -> out.append(FindingsText.line(f)).append('\n')));
        }
        if (report.ranksLeftOut() > 0) {
            out.append(report.ranksLeftOut()).append(" ranks (").append(report.jobsLeftOut()).append(" jobs) left out: past ")
                    .append(Jobs.MAX_RANKS).append(" ranks, ").append(Jobs.MAX_JOBS).append(" jobs or ").append(Jobs.MAX_RANKS_PER_JOB)
                    .append(" ranks a job\n");
        }
        return out.toString();
    }

    /** {@code 0-3} for whole runs of rank numbers, {@code 0,2}; a rank without a number as {@code ?}; then how many more. */
    private static String ranks(List<JobRank> ranks) {
        List<String> shown = ranks.stream().limit(RANKS_SHOWN).map(r -> r.rank().map(String::valueOf).orElse("?")).toList();
        String text = runs(shown);
        return ranks.size() > RANKS_SHOWN ? text + " +" + (ranks.size() - RANKS_SHOWN) : text;
    }

    private static String runs(List<String> numbers) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < numbers.size()) {
            int j = i;
            while (j + 1 < numbers.size() && isNext(numbers.get(j), numbers.get(j + 1))) {
                j++;
            }
            out.append(out.length() == 0 ? "" : ",").append(numbers.get(i)).append(j > i + 1 ? "-" + numbers.get(j) : j == i + 1 ? "," + numbers.get(j) : "");
            i = j + 1;
        }
        return out.toString();
    }

    private static boolean isNext(String a, String b) {
        return !a.equals("?") && !b.equals("?") && Integer.parseInt(b) == Integer.parseInt(a) + 1;
    }

    private static String nodes(List<String> nodes) {
        List<String> shown = nodes.stream().limit(RANKS_SHOWN).map(Names::escape).toList();
        return String.join(",", shown) + (nodes.size() > RANKS_SHOWN ? " +" + (nodes.size() - RANKS_SHOWN) : "");
    }
}
