package io.railmap.matrix.codec;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.List;

/**
 * A finding as JSON, the one form every output that holds findings uses (a plan, a check report, the
 * rail table, a node's env, the event stream), written by Jackson in this order:
 *
 * <pre>
 * {"code": "mismatched-rail", "severity": "error", "ranks": [0, 1], "rail": 1 | null,
 *  "ports": ["a:en6", "b:en7", ...], "message": "..."}
 * </pre>
 * {@code code} and {@code severity} are the constants' external names; {@code ports} is always present,
 * empty when the finding names none.
 *
 * @param code     what the finding is about
 * @param severity how much it matters
 * @param ranks    the ranks it names, in order; empty when it names none
 * @param rail     the rail (wire index or rail id) it is about; null when none
 * @param ports    its ports as {@code node:netdev}, in the order its message names them
 * @param message  the sentence
 */
@JsonPropertyOrder({"code", "severity", "ranks", "rail", "ports", "message"})
public record FindingJson(Code code, Severity severity, List<Integer> ranks, Integer rail, List<String> ports, String message) {
    /** @return the finding's JSON */
    public static FindingJson of(Finding f) {
        return new FindingJson(f.code(), f.severity(), List.copyOf(f.ranks()), f.rail().orElse(null),
                f.ports().stream().map(Object::toString).toList(), f.message());
    }

    /** @return the findings' JSON, in the order given */
    public static List<FindingJson> of(List<Finding> findings) {
        return findings.stream().map(FindingJson::of).toList();
    }
}
