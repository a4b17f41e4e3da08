package io.railmap.daemon.cluster;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One member of the current view, as {@code GET /v1/members} lists it.
 *
 * @param node          the node name its address carries; empty for a member that is not a railmapd
 *                      (it can be in the view only when the cluster runs without a key)
 * @param address       its cluster address, {@code host:port} (IPv6 in brackets), or {@code "?"}
 *                      while JGroups has not learnt it yet
 * @param self          whether it is this daemon
 * @param coordinator   whether it is the view's coordinator (the first member, which installs views)
 * @param recordVersion the version of its record this daemon holds (of its node, made by its
 *                      incarnation); empty when none is held yet, and for a member superseded by a
 *                      later member of the same node
 * @param recordAgeMs   how long ago this daemon took that version (for itself: made it), in ms;
 *                      empty when no record is held
 */
public record Member(Optional<String> node, String address, boolean self, boolean coordinator, OptionalLong recordVersion,
                     OptionalLong recordAgeMs) {
    /** @throws NullPointerException when a field is null */
    public Member {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(recordVersion, "recordVersion");
        Objects.requireNonNull(recordAgeMs, "recordAgeMs");
    }
}
