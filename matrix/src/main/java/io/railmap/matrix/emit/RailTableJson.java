package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.fabric.RailTable;
import java.util.Set;

/**
 * The rail table as JSON, for {@code railmap rails --format json} ({@link Formats#RAIL_TABLES}) and the
 * {@code railTable} of {@link PlanJson}.
 *
 * <pre>
 * railTable: {"rails": [rail, ...], "strays": [nic, ...], "findings": [finding, ...]}
 * rail:      {"rail": 0, "kind": "switch" | "segment", "identity": "lldp:52:54:00:00:00:00", "name": "leaf0",
 *             "hca": "mlx5_0", "nics": [nic, ...]}
 * nic:       {"node": "g1", "port": "eth2", "hca": "mlx5_0", "rateGbps": 400.0 | null, "switchPort": "p1" | null,
 *             "placedBy": "lldp" | "infiniband" | "probe", ["reaches": "leaf7"  (strays only)]}
 * </pre>
 * Findings are as in {@link FindingJson#array}; their {@code ranks} are empty and {@code rail} is a
 * rail id.
 */
public final class RailTableJson {
    /** The registered format ({@link Formats#RAIL_TABLES}). */
    public static final RailTableFormat FORMAT = new RailTableFormat(new Format.About("json", "application/json",
            "The rail table and its findings as JSON", Set.of(), true), RailTableJson::render);

    private RailTableJson() {
    }

    /** @return the table as indented JSON, ending with a newline */
    public static String render(RailTable table) {
        return JsonText.pretty(tree(table));
    }

    /** @return the table as a JSON tree */
    public static ObjectNode tree(RailTable table) {
        ObjectNode root = JsonText.object();
        ArrayNode rails = root.putArray("rails");
        for (Rail rail : table.rails()) {
            ObjectNode r = rails.addObject();
            r.put("rail", rail.id());
            r.put("kind", rail.kind().wireName());
            r.put("identity", rail.identity());
            r.put("name", rail.name());
            r.put("hca", rail.hca());
            ArrayNode nics = r.putArray("nics");
            rail.nics().forEach(n -> nic(nics.addObject(), n));
        }
        ArrayNode strays = root.putArray("strays");
        table.strays().forEach((n, reaches) -> nic(strays.addObject(), n).put("reaches", reaches));
        root.set("findings", FindingJson.array(table.findings()));
        return root;
    }

    private static ObjectNode nic(ObjectNode o, RailNic n) {
        o.put("node", n.node());
        o.put("port", n.port().port());
        o.put("hca", n.hca());
        o.put("rateGbps", n.rateGbps().orElse(null));
        o.put("switchPort", n.switchPort().orElse(null));
        o.put("placedBy", n.placedBy());
        return o;
    }
}
