/**
 * The domain: a {@link io.railmap.matrix.model.Port} is one end of a cable on one node, a
 * {@link io.railmap.matrix.model.NodeRecord} is one node's report of its ports and the far ends
 * each port observed, and a {@link io.railmap.matrix.model.Snapshot} is every record at one moment.
 * All types are immutable records whose constructors validate their input and throw
 * {@link java.lang.IllegalArgumentException} with a sentence naming the bad value.
 */
package io.railmap.matrix.model;
