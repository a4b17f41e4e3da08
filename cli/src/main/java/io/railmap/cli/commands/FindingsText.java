package io.railmap.cli.commands;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.List;
import java.util.stream.Collectors;

/** Findings as lines for people: {@code error mismatched-rail [ranks 0,1 rail 1] <message>}. */
final class FindingsText {
    private FindingsText() {
    }

    static String line(Finding f) {
        StringBuilder where = new StringBuilder();
        if (!f.ranks().isEmpty()) {
            where.append(f.ranks().size() == 1 ? "rank " : "ranks ")
                    .append(f.ranks().stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        f.rail().ifPresent(k -> where.append(where.length() > 0 ? " " : "").append("rail ").append(k));
        return f.severity().wireName() + " " + f.code().wireName() + (where.length() > 0 ? " [" + where + "]" : "")
                + " " + f.message();
    }

    static String summary(List<Finding> findings) {
        return count(findings, Severity.ERROR, "error") + ", " + count(findings, Severity.WARNING, "warning") + ", "
                + count(findings, Severity.INFO, "note");
    }

    private static String count(List<Finding> findings, Severity severity, String noun) {
        long n = findings.stream().filter(f -> f.severity() == severity).count();
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
