package io.railmap.matrix.check;

import java.util.List;
import java.util.Optional;

/**
 * One result of a check: what (a code), how bad, where (ranks and rail) and a sentence a person
 * understands, naming nodes, ports and what to do.
 *
 * @param code     what the finding is about
 * @param severity how much it matters
 * @param ranks    the ranks involved, ascending; empty when it concerns nodes outside the rank list
 * @param rail     the rail (wire index k) involved, when there is one
 * @param message  a sentence for people
 */
public record Finding(Code code, Severity severity, List<Integer> ranks, Optional<Integer> rail, String message) {
    /** Sorts and copies the ranks. */
    public Finding {
        ranks = ranks.stream().sorted().distinct().toList();
    }

    /** @return a copy with another severity */
    public Finding withSeverity(Severity other) {
        return new Finding(code, other, ranks, rail, message);
    }

    /** @return a copy whose message starts with {@code prefix} */
    public Finding prefixed(String prefix) {
        return new Finding(code, severity, ranks, rail, prefix + message);
    }

    /** @return true when this is an {@link Severity#ERROR} */
    public boolean isError() {
        return severity == Severity.ERROR;
    }
}
