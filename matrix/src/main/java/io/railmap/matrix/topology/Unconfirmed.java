package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;
import java.util.List;
import java.util.Optional;

/**
 * A one-sided observation: port {@code from} saw a far end that does not see it back (or that no
 * record describes). Reported, never put into a matrix.
 *
 * @param from   the port that made the observation
 * @param farEnd the far end it named; empty when only a Thunderbolt peer domain UUID is known and no
 *               port in the snapshot carries it, or several do that the UUIDs do not tell apart
 * @param reason why the cable is not confirmed, as a sentence fragment ("b:en7 observed c:en2 instead")
 * @param named  the ports {@code reason} names, in its order ({@code [b:en7, c:en2]}); empty when it names none
 */
public record Unconfirmed(PortRef from, Optional<PortRef> farEnd, String reason, List<PortRef> named) {
    /** Copies the list. */
    public Unconfirmed {
        named = List.copyOf(named);
    }
}
