package io.railmap.daemon.probe;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replay protection across ports and across time: for each sending node, the newest incarnation and
 * sequence number accepted from it, kept after its far ends expire, so that hellos captured earlier
 * (on this cable or another) and sent again are dropped. Pure logic: no clock of its own, not
 * thread-safe (the probe's event loop is its one caller).
 *
 * <p>Rules, for a hello of incarnation {@code i} and sequence number {@code s} from node N whose
 * remembered newest is {@code (I, S)}, last accepted at {@code t}:
 * <ul>
 *   <li>{@code i > I}: a new run of N; taken.</li>
 *   <li>{@code i < I}: an older run. {@link Verdict#STALE} while N's newer run was heard within the
 *       longest TTL this daemon accepts; after that the newer run is gone (N restarted with a clock
 *       behind), and the older one is taken.</li>
 *   <li>{@code i == I}: taken when {@code s > S - reorderWindow} (a little reordering between
 *       N's ports is normal); else {@link Verdict#REPLAY}.</li>
 * </ul>
 * Per-port order (a sequence number must grow on the port and far end it arrives on) is the
 * {@link NeighbourTable}'s; this class bounds what a capture replayed onto another port, or after
 * the far end expired, can do. At most {@link ProbeLimits#maxSenders()} nodes are remembered; the
 * least recently heard is forgotten first. Version-1 hellos carry no sequence number and are not
 * tracked.
 */
final class SenderFloors {
    /** What to do with a hello. */
    enum Verdict { TAKE, STALE, REPLAY }

    private record Floor(long incarnation, long seq, long acceptedAtMs) {
    }

    private final ProbeLimits limits;
    private final long oldRunSilenceMs;
    private final Map<String, Floor> byNode;

    /**
     * @param limits          how many senders to remember and the reorder window
     * @param oldRunSilenceMs how long a newer run must have been silent before an older one is taken
     *                        (the longest TTL this daemon accepts), ms
     */
    SenderFloors(ProbeLimits limits, long oldRunSilenceMs) {
        this.limits = limits;
        this.oldRunSilenceMs = oldRunSilenceMs;
        this.byNode = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Floor> eldest) {
                return size() > limits.maxSenders();
            }
        };
    }

    /**
     * @param hello the hello
     * @param nowMs when it arrived, monotonic ms
     * @return whether to take it; nothing is remembered until {@link #accepted}
     */
    Verdict judge(ProbeDatagram hello, long nowMs) {
        if (hello.seq() == 0) {
            return Verdict.TAKE;
        }
        Floor floor = byNode.get(hello.node());
        if (floor == null || hello.incarnation() > floor.incarnation()) {
            return Verdict.TAKE;
        }
        if (hello.incarnation() < floor.incarnation()) {
            return nowMs - floor.acceptedAtMs() > oldRunSilenceMs ? Verdict.TAKE : Verdict.STALE;
        }
        return hello.seq() > floor.seq() - limits.reorderWindow() ? Verdict.TAKE : Verdict.REPLAY;
    }

    /** Remembers a hello that was taken. */
    void accepted(ProbeDatagram hello, long nowMs) {
        if (hello.seq() == 0) {
            return;
        }
        Floor floor = byNode.get(hello.node());
        if (floor == null || hello.incarnation() != floor.incarnation()) {
            byNode.put(hello.node(), new Floor(hello.incarnation(), hello.seq(), nowMs));
        } else {
            byNode.put(hello.node(), new Floor(floor.incarnation(), Math.max(floor.seq(), hello.seq()), nowMs));
        }
    }
}
