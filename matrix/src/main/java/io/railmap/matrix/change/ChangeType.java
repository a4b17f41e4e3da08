package io.railmap.matrix.change;

import io.railmap.matrix.model.EnumNames;

/** What kind of change an event reports; its external name ({@code cable-lost}) is the SSE event name. */
public enum ChangeType {
    /** A member left the cluster view. */
    MEMBER_LEFT,
    /** A member joined the cluster view. */
    MEMBER_JOINED,
    /** A node's record was added, replaced by a newer one, or dropped. */
    RECORD_CHANGED,
    /** A port that was active is not. */
    PORT_DOWN,
    /** A port that was not active is. */
    PORT_UP,
    /** A confirmed cable is no longer seen from both ends. */
    CABLE_LOST,
    /** A cable is confirmed: each end hears the other. */
    CABLE_ADDED,
    /** A finding of the rail table, or of a running job (the daemon's), no longer holds. */
    FINDING_CLEARED,
    /** A finding of the rail table, or of a running job (the daemon's), holds that did not. */
    FINDING_RAISED,
    /** Not every member holds this daemon's records any more. */
    AGREEMENT_LOST,
    /** Every member holds exactly this daemon's records. */
    AGREEMENT_REACHED;

    /** @return the external name, e.g. {@code "cable-lost"} */
    public String externalName() {
        return EnumNames.of(this);
    }
}
