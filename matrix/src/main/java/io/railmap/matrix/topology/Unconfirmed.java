package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;
import java.util.Optional;

/**
 * A one-sided observation: port {@code from} saw a far end that does not see it back (or that no
 * record describes). Reported, never put into a matrix.
 *
 * @param from   the port that made the observation
 * @param farEnd the far end it named; empty when only a Thunderbolt peer domain UUID is known and no
 *               port in the snapshot carries it
 * @param reason why the cable is not confirmed, as a sentence fragment ("b:en7 does not report a:en6")
 */
public record Unconfirmed(PortRef from, Optional<PortRef> farEnd, String reason) {
}
