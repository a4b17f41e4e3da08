package io.railmap.matrix.rail;

import io.railmap.matrix.topology.Cable;

/**
 * A confirmed cable between two ranks that is not a rail, and why.
 *
 * @param cable  the cable
 * @param reason why it was left out, as a sentence fragment ("a:en6 is down")
 */
public record LeftOut(Cable cable, String reason) {
}
