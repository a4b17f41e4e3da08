package io.railmap.matrix.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.finding.Finding;
import java.util.List;

/**
 * A finding as JSON, the one form every output that holds findings uses (a plan, a check report, the
 * rail table, a node's env, the event stream):
 *
 * <pre>
 * {"code": "mismatched-rail", "severity": "error", "ranks": [0, 1], "rail": 1 | null,
 *  "ports": ["a:en6", "b:en7", ...], "message": "..."}
 * </pre>
 * {@code ports} is always present, empty when the finding names none.
 */
public final class FindingJson {
    private FindingJson() {
    }

    /** @return the findings as a JSON array, in the order given */
    public static ArrayNode array(List<Finding> findings) {
        ArrayNode out = JsonText.array();
        for (Finding f : findings) {
            ObjectNode o = out.addObject();
            o.put("code", f.code().wireName());
            o.put("severity", f.severity().wireName());
            ArrayNode ranks = o.putArray("ranks");
            f.ranks().forEach(ranks::add);
            if (f.rail().isPresent()) {
                o.put("rail", f.rail().get());
            } else {
                o.putNull("rail");
            }
            ArrayNode ports = o.putArray("ports");
            f.ports().forEach(p -> ports.add(p.toString()));
            o.put("message", f.message());
        }
        return out;
    }
}
