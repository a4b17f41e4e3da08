package io.railmap.matrix.plan;

import java.util.List;

/** No rank order follows a cycle of the cable graph through every requested node. */
public final class NoRingException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final List<String> unplaceable;

    /**
     * @param unplaceable the nodes that cannot be placed on a ring
     * @param reason      why, as a sentence
     */
    public NoRingException(List<String> unplaceable, String reason) {
        super("no ring order through " + String.join(", ", unplaceable) + ": " + reason);
        this.unplaceable = List.copyOf(unplaceable);
    }

    /** @return the nodes that cannot be placed */
    public List<String> unplaceable() {
        return unplaceable;
    }
}
