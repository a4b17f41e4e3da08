package io.railmap.matrix.finding;

import com.fasterxml.jackson.annotation.JsonValue;
import io.railmap.matrix.model.EnumNames;
/** How much a finding matters. {@code railmap check} exits 2 when any finding is an {@link #ERROR}. */
public enum Severity {
    /** The config will fail or hang as written. */
    ERROR,
    /** The config works, but not as its author probably meant (unused wires, one-sided observations). */
    WARNING,
    /** Worth knowing; nothing to fix (a cable left out by a filter, a mode jaccl will not use). */
    INFO;

    /** @return the JSON value, e.g. {@code "error"} */
    @JsonValue
    public String externalName() {
        return EnumNames.of(this);
    }
}
