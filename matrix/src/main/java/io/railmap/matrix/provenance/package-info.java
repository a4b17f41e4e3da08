/**
 * Where a result came from: the records it was computed from ({@link io.railmap.matrix.provenance.RecordId})
 * and one digest of them ({@link io.railmap.matrix.provenance.Provenance}), so that ranks can tell they
 * were handed configs of one topology, and a config that no longer matches the cables is found.
 */
package io.railmap.matrix.provenance;
