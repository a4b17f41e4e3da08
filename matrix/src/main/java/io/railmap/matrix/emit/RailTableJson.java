package io.railmap.matrix.emit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.railmap.matrix.codec.FindingJson;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.codec.Nullable;
import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.fabric.RailTable;
import java.util.List;
import java.util.Set;

/**
 * The rail table as JSON, for {@code railmap rails --format json} ({@link Formats#RAIL_TABLES}) and the
 * {@code railTable} of {@link PlanJson}; written by Jackson in this order:
 *
 * <pre>
 * railTable: {"rails": [rail, ...], "strays": [nic, ...], "findings": [finding, ...]}
 * rail:      {"rail": 0, "kind": "switch" | "segment", "identity": "lldp:52:54:00:00:00:00", "name": "leaf0",
 *             "hca": "mlx5_0", "nics": [nic, ...]}
 * nic:       {"node": "g1", "port": "eth2", "hca": "mlx5_0", "rateGbps": 400.0 | null, "switchPort": "p1" | null,
 *             "placedBy": "lldp" | "infiniband" | "probe", ["reaches": "leaf7"  (strays only)]}
 * </pre>
 * Findings are {@link FindingJson}s; their {@code ranks} are empty and {@code rail} is a rail id.
 *
 * @param rails    the rails, by id
 * @param strays   the compute NICs on no rail, each with what it reaches
 * @param findings the table's findings
 */
@JsonPropertyOrder({"rails", "strays", "findings"})
public record RailTableJson(List<RailJson> rails, List<NicJson> strays, List<FindingJson> findings) {
    /** The registered format ({@link Formats#RAIL_TABLES}). */
    public static final RailTableFormat FORMAT = new RailTableFormat(new Format.About("json", "application/json",
            "The rail table and its findings as JSON", Set.of(), true), RailTableJson::render);

    /** @return the table as indented JSON, ending with a newline */
    public static String render(RailTable table) {
        return JsonText.write(of(table));
    }

    /** @return the table's JSON */
    public static RailTableJson of(RailTable table) {
        return new RailTableJson(table.rails().stream().map(RailJson::of).toList(),
                table.strays().entrySet().stream().map(e -> NicJson.of(e.getKey(), e.getValue())).toList(),
                FindingJson.of(table.findings()));
    }

    /**
     * One rail.
     *
     * @param rail     its id
     * @param kind     a switch or a segment
     * @param identity what identifies it on every node ({@code lldp:<chassis ID>}, ...)
     * @param name     what people call it
     * @param hca      the HCA name most nodes use on it
     * @param nics     its compute NICs, by node then port
     */
    @JsonPropertyOrder({"rail", "kind", "identity", "name", "hca", "nics"})
    public record RailJson(int rail, Rail.Kind kind, String identity, String name, String hca, List<NicJson> nics) {
        static RailJson of(Rail rail) {
            return new RailJson(rail.id(), rail.kind(), rail.identity(), rail.name(), rail.hca(),
                    rail.nics().stream().map(n -> NicJson.of(n, null)).toList());
        }
    }

    /**
     * One compute NIC.
     *
     * @param node       its node
     * @param port       its netdev
     * @param hca        its HCA as NCCL names it
     * @param rateGbps   the link rate in Gb/s; null when unknown
     * @param switchPort the switch port its cable ends on; null when the switch does not say
     * @param placedBy   what put it on its rail: {@code lldp}, {@code infiniband} or {@code probe}
     * @param reaches    a stray's: what its cable reaches; left out of a rail's NICs
     */
    @JsonPropertyOrder({"node", "port", "hca", "rateGbps", "switchPort", "placedBy", "reaches"})
    public record NicJson(String node, String port, String hca, Double rateGbps, @Nullable String switchPort, String placedBy,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String reaches) {
        static NicJson of(RailNic n, String reaches) {
            return new NicJson(n.node(), n.port().netdev(), n.hca(), n.rateGbps().orElse(null), n.switchPort().orElse(null),
                    n.placedBy(), reaches);
        }
    }
}
