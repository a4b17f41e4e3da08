/**
 * Ring rank orders. jaccl's ring connects rank r to ranks r-1 and r+1, so the rank order must follow
 * a cycle through every node of the cable graph; {@link io.railmap.matrix.ring.RingOrder} finds one
 * that maximises the smallest wire count on the cycle. {@link io.railmap.matrix.ring.BottleneckHeldKarp}
 * is the exact search.
 */
package io.railmap.matrix.ring;
