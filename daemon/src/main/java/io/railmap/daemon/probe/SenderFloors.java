package io.railmap.daemon.probe;

import io.railmap.matrix.model.PortRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replay protection across ports and across time, for one run of this daemon: for each sending node,
 * the newest incarnation and sequence number taken from it, and for each port and far end, the last
 * one taken there; both kept after the far end expires, so that hellos captured earlier (on this
 * cable or another) and sent again are dropped. Nothing is kept across a restart of this daemon
 * (PROBE.md, "Replays", says what a replay can do then). The probe's one record of sequence numbers:
 * {@link NeighbourTable} forgets a far end when it expires and does not judge them. Pure logic: no
 * clock of its own, not thread-safe (the probe's event loop is its one caller).
 *
 * <p>Rules, for a hello of incarnation {@code i} and sequence number {@code s} from node N arriving
 * on port Y, when N's remembered newest is {@code (I, S)}, last taken at {@code t}:
 * <ul>
 *   <li>{@code i > I}: a new run of N; taken.</li>
 *   <li>{@code i < I}: an older run. {@link Verdict#STALE} while N's newer run was heard within the
 *       longest TTL this daemon accepts; after that the newer run is gone (N restarted with a clock
 *       behind), and the older one is taken.</li>
 *   <li>{@code i == I}: taken when {@code s > S - reorderWindow} (a little reordering between
 *       N's ports is normal); else {@link Verdict#REPLAY}.</li>
 *   <li>and, when taken so far: {@link Verdict#REPEAT} when Y took a datagram of the same far end and
 *       incarnation with a sequence number of {@code s} or above, even if that far end expired since.
 *       So each datagram is taken at most once on each port.</li>
 * </ul>
 * At most {@link ProbeLimits#maxSenders()} nodes and {@link ProbeLimits#maxFarEnds()} pairs of port
 * and far end are remembered; the least recently heard are forgotten first. Version-1 hellos carry
 * no sequence number and are not tracked.
 */
final class SenderFloors {
    /** What to do with a hello. */
    enum Verdict {
        /** Take it. */
        TAKE,
        /** An older run of a sender whose newer run is alive. */
        STALE,
        /** More than the reorder window behind the newest datagram taken from its sender. */
        REPLAY,
        /** Not above the last datagram of that far end taken on that port. */
        REPEAT
    }

    /** A port of this node and a far end it heard. */
    private record Heard(String port, PortRef farEnd) {
    }

    private record Floor(long incarnation, long seq, long acceptedAtMs) {
    }

    private final ProbeLimits limits;
    private final long oldRunSilenceMs;
    private final Map<String, Floor> byNode;
    private final Map<Heard, Floor> byPort;

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
        this.byPort = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Heard, Floor> eldest) {
                return size() > limits.maxFarEnds();
            }
        };
    }

    /**
     * @param port  the local netdev it arrived on
     * @param hello the hello
     * @param nowMs when it arrived, monotonic ms
     * @return whether to take it; nothing is remembered until {@link #accepted}
     */
    Verdict judge(String port, ProbeDatagram hello, long nowMs) {
        if (hello.seq() == 0) {
            return Verdict.TAKE;
        }
        Floor floor = byNode.get(hello.node());
        if (floor != null && hello.incarnation() < floor.incarnation() && nowMs - floor.acceptedAtMs() <= oldRunSilenceMs) {
            return Verdict.STALE;
        }
        if (floor != null && hello.incarnation() == floor.incarnation() && hello.seq() <= floor.seq() - limits.reorderWindow()) {
            return Verdict.REPLAY;
        }
        Floor last = byPort.get(new Heard(port, hello.farEnd()));
        return last != null && last.incarnation() == hello.incarnation() && hello.seq() <= last.seq() ? Verdict.REPEAT : Verdict.TAKE;
    }

    /**
     * Remembers a hello that was taken.
     *
     * @param port  the local netdev it arrived on
     * @param hello the hello
     * @param nowMs when it arrived, monotonic ms
     */
    void accepted(String port, ProbeDatagram hello, long nowMs) {
        if (hello.seq() == 0) {
            return;
        }
        byNode.put(hello.node(), newest(byNode.get(hello.node()), hello, nowMs));
        Heard heard = new Heard(port, hello.farEnd());
        byPort.put(heard, newest(byPort.get(heard), hello, nowMs));
    }

    private static Floor newest(Floor floor, ProbeDatagram hello, long nowMs) {
        return floor == null || hello.incarnation() != floor.incarnation()
                ? new Floor(hello.incarnation(), hello.seq(), nowMs)
                : new Floor(floor.incarnation(), Math.max(floor.seq(), hello.seq()), nowMs);
    }
}
