package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;
import java.util.List;

/**
 * A port that heard several far ends: it sits on a shared L2 segment (a switch), not on a
 * point-to-point cable, so none of what it heard becomes a cable.
 *
 * @param port    the port
 * @param farEnds every far end it observed, sorted
 */
public record SharedSegment(PortRef port, List<PortRef> farEnds) {
    /** Copies the far ends. */
    public SharedSegment {
        farEnds = List.copyOf(farEnds);
    }
}
