package io.railmap.matrix.rail;

import io.railmap.matrix.topology.Cable;

/**
 * A confirmed cable between two ranks that is not a rail, and why.
 *
 * @param cable   the cable
 * @param reason  why it was left out, as a sentence fragment ("a:en6 is down")
 * @param notRdma true when an end has no RDMA device, so the cable can never be a jaccl rail
 *                (jaccl opens devices by RDMA name only); such a cable is a finding of its own
 */
public record LeftOut(Cable cable, String reason, boolean notRdma) {
}
