package io.railmap.matrix.fabric;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;
import java.util.List;
import java.util.Objects;

/**
 * One rail of a switched fabric: a leaf switch, or an L2 segment the probe hears, reached by compute
 * NICs of at least two nodes.
 *
 * @param id       the rail id, 0-based, numbered by {@link RailTable}'s rule
 * @param kind     a switch or a segment
 * @param identity what identifies it, the same on every node: {@code lldp:<chassis ID>},
 *                 {@code infiniband:<node GUID>}, or {@code segment:<node:port>} (the segment's
 *                 first port in natural order)
 * @param name     what people call it: the switch's name (LLDP system name, InfiniBand node
 *                 description) or chassis, or {@code segment of <node:port>}
 * @param hca      the HCA name most nodes use on this rail (ties: the first in natural order)
 * @param nics     the compute NICs on it, by node then port
 */
public record Rail(int id, Kind kind, String identity, String name, String hca, List<RailNic> nics) {
    /** What a rail is. */
    public enum Kind {
        /** A switch that announced itself (LLDP) or that the InfiniBand fabric names. */
        SWITCH,
        /** An L2 segment the link probe hears several nodes on, with no switch known. */
        SEGMENT;

        /** @return {@code switch}, {@code segment} */
        @JsonValue
        public String externalName() {
            return EnumNames.of(this);
        }
    }

    /** Copies the NICs. */
    public Rail {
        Objects.requireNonNull(kind, "kind");
        nics = List.copyOf(nics);
    }

    /** @return the nodes with a NIC on this rail, distinct, in NIC order */
    public List<String> nodes() {
        return nics.stream().map(RailNic::node).distinct().toList();
    }
}
