package io.railmap.daemon.cluster;

import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import java.util.List;

/**
 * What this daemon holds ({@link Holdings.Held}: the digest and count of its records), digested once
 * per snapshot.
 *
 * <p>Cost: one digest per snapshot, not at every ask (each record received again, each holdings sent,
 * each agreement asked), and each record hashed once while it is held ({@link Provenance.Digester}):
 * while n records arrive one by one, n digests of up to n records, not n² record hashes.
 */
final class OwnHoldings {
    private final Engine engine;
    /** The holdings of the last snapshot asked. */
    private volatile HeldOf heldOf;
    /** The hash of each record held, kept between digests. */
    private final Provenance.Digester digester = new Provenance.Digester();

    /** What a snapshot holds: the engine's snapshots are immutable, one per change. */
    private record HeldOf(Snapshot snapshot, Holdings.Held held) {
    }

    OwnHoldings(Engine engine) {
        this.engine = engine;
    }

    /** @return what this daemon holds now */
    Holdings.Held held() {
        Snapshot snapshot = engine.snapshot();
        HeldOf last = heldOf;
        if (last != null && last.snapshot() == snapshot) {
            return last.held();
        }
        List<NodeRecord> records = snapshot.records();
        Holdings.Held held = new Holdings.Held(digester.digest(records), records.size());
        heldOf = new HeldOf(snapshot, held);
        return held;
    }
}
