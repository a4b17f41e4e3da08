package io.railmap.matrix.finding;

import io.railmap.matrix.model.PortRef;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One result of a check: what (a code), how bad, where (ranks, rail and ports) and a sentence a
 * person understands, naming nodes, ports and what to do.
 *
 * @param code     what the finding is about
 * @param severity how much it matters
 * @param ranks    the ranks involved, ascending; empty when it concerns nodes outside the rank list
 * @param rail     the rail (wire index k) involved, when there is one
 * @param ports    the ports the finding is about, each once, in the order the sentence first names
 *                 them (as {@code node:port}); empty when it names none
 * @param message  a sentence for people
 */
public record Finding(Code code, Severity severity, List<Integer> ranks, Optional<Integer> rail, List<PortRef> ports,
                      String message) {
    /** Sorts and copies the ranks; copies the ports, keeping the first of each. */
    public Finding {
        ranks = ranks.stream().sorted().distinct().toList();
        ports = List.copyOf(new LinkedHashSet<>(ports));
        Objects.requireNonNull(message, "message");
    }

    /** A finding that names no port. */
    public Finding(Code code, Severity severity, List<Integer> ranks, Optional<Integer> rail, String message) {
        this(code, severity, ranks, rail, List.of(), message);
    }

    /** @return a copy with another severity */
    public Finding withSeverity(Severity other) {
        return new Finding(code, other, ranks, rail, ports, message);
    }

    /** @return a copy whose message starts with {@code prefix} (which names no port) */
    public Finding prefixed(String prefix) {
        return new Finding(code, severity, ranks, rail, ports, prefix + message);
    }

    /** @return true when this is an {@link Severity#ERROR} */
    public boolean isError() {
        return severity == Severity.ERROR;
    }
}
