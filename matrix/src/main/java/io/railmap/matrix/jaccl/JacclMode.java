package io.railmap.matrix.jaccl;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;

/** The group jaccl builds from a devices file. */
public enum JacclMode {
    /** Every pair joined directly; only wire 0 of each cell is used; at most 8 ranks. */
    MESH,
    /** Rank r talks to r-1 and r+1 (mod N) over every wire of those cells; at most 4 wires. */
    RING;

    /** @return the JSON value, {@code "mesh"} or {@code "ring"} */
    @JsonValue
    public String externalName() {
        return EnumNames.of(this);
    }
}
