package io.railmap.matrix.job;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.List;
import java.util.Objects;

/**
 * A job and what checking it against the cables found ({@link JobCheck}).
 *
 * @param job      the job
 * @param findings its findings, errors first; each sentence starts with the job's id and names its
 *                 ranks, nodes and pids
 */
public record JobVerdict(Job job, List<Finding> findings) {
    /** The verdicts' words, worst first. */
    public static final List<String> VERDICTS = List.of("error", "warning", "unchecked", "ok");

    /** Copies the findings. */
    public JobVerdict {
        Objects.requireNonNull(job, "job");
        findings = List.copyOf(findings);
    }

    /**
     * @return one word for the job: {@code error} (a finding will fail or hang it), {@code warning},
     *         {@code unchecked} (railmap could not check it: {@code job-unchecked}), else {@code ok}
     */
    public String verdict() {
        if (findings.stream().anyMatch(Finding::isError)) {
            return "error";
        }
        if (findings.stream().anyMatch(f -> f.severity() == Severity.WARNING)) {
            return "warning";
        }
        return findings.stream().anyMatch(f -> f.code() == Code.JOB_UNCHECKED) ? "unchecked" : "ok";
    }
}
