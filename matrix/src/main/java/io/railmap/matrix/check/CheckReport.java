package io.railmap.matrix.check;

import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import java.util.List;
import java.util.Optional;

/**
 * The result of checking a jaccl devices file or an mlx.launch hostfile ({@link FileCheck}).
 *
 * @param source   what was checked (a file name, {@code "request body"})
 * @param ranks    the node of each rank, in rank order
 * @param mode     the mode the file was checked in
 * @param mlxVersion the MLX release whose rules the file was checked by
 * @param findings the findings, errors first ({@link Checker#check})
 * @param hostfile the hostfile and how its mode was chosen, when a hostfile was checked
 */
public record CheckReport(String source, List<String> ranks, Mode mode, MlxVersion mlxVersion, List<Finding> findings,
                          Optional<FromHostfile> hostfile) {
    /**
     * What a checked hostfile said.
     *
     * @param file the hostfile
     * @param mode the mode it was checked in, and why
     */
    public record FromHostfile(Hostfile file, LaunchMode mode) {
    }

    /** Copies the lists. */
    public CheckReport {
        ranks = List.copyOf(ranks);
        findings = List.copyOf(findings);
    }

    /** @return true when any finding is an error */
    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError);
    }
}
