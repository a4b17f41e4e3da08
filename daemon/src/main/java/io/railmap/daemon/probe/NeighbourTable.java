package io.railmap.daemon.probe;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which far ends each local port hears, and since when: the probe's state as pure logic. No
 * threads, no sockets, no clock of its own (every method that needs the time takes it, in ms on a
 * monotonic clock). Not thread-safe: one owner calls it.
 *
 * <p>Rules. A hello heard on port Y from far end (B, X) makes (B, X) a neighbour of Y until the
 * hello's TTL runs out, Y loses carrier, or (B, X) says goodbye (TTL 0). A hello of a newer
 * incarnation of the same far end replaces the old one; an older incarnation is stale and changes
 * nothing. Several far ends on one port are all kept: that port sits on a shared segment, which
 * the topology layer reports. Methods that change the table return what changed, in order, as
 * {@link NeighbourEvent}s.
 *
 * <p>Bounds ({@link ProbeLimits}): a port holds at most {@code maxFarEndsPerPort} far ends and the
 * table at most {@code maxFarEnds}; a new far end beyond either is refused ({@link Admission#FULL}),
 * while far ends already held keep being refreshed, so a flood of made-up far ends never displaces
 * a real cable.
 *
 * <p>The table does not judge sequence numbers: what it forgets on expiry, replay protection must
 * not, so the caller drops replays before the table sees them ({@link SenderFloors}, in
 * {@link ProbeIntake}).
 */
public final class NeighbourTable {
    /** Whether a hello may be taken, as {@link #admit} judges it. */
    public enum Admission {
        /** Take it. */
        OK,
        /** The port hears this far end in a newer incarnation. */
        STALE,
        /** A new far end, but the port or the table holds as many as it may. */
        FULL
    }

    private final ProbeLimits limits;
    private final SortedMap<String, SortedMap<PortRef, Neighbour>> byPort = new TreeMap<>(NaturalOrder.INSTANCE);
    private int size;
    /** No far end expires before this (ms, monotonic): exact after {@link #expire}, a lower bound after other changes. */
    private long nextExpiryMs = Long.MAX_VALUE;

    /** A table with the default limits. */
    public NeighbourTable() {
        this(ProbeLimits.DEFAULTS);
    }

    /** @param limits how many far ends it holds per port and in all */
    public NeighbourTable(ProbeLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /**
     * @param port  the local netdev the hello arrived on
     * @param hello the hello
     * @return whether {@link #heard} would take it, and if not, why
     */
    public Admission admit(String port, ProbeDatagram hello) {
        SortedMap<PortRef, Neighbour> far = byPort.getOrDefault(port, Collections.emptySortedMap());
        Neighbour known = far.get(hello.farEnd());
        if (known == null) {
            if (hello.goodbye()) {
                return Admission.OK; // changes nothing
            }
            return far.size() >= limits.maxFarEndsPerPort() || size >= limits.maxFarEnds() ? Admission.FULL : Admission.OK;
        }
        return hello.incarnation() < known.incarnation() ? Admission.STALE : Admission.OK;
    }

    /**
     * Records a hello (or goodbye) that arrived on a port.
     *
     * @param port  the local netdev it arrived on, as named by the packet's arrival interface
     * @param hello the decoded hello, already checked to be of this cluster and not from this node
     * @param nowMs when it arrived, monotonic ms
     * @return {@link NeighbourEvent.Found} for a new far end, {@link NeighbourEvent.Restarted} for a
     *         newer incarnation, {@link NeighbourEvent.Lost} with {@link LossCause#GOODBYE} for a
     *         goodbye of a known far end; empty when the hello only refreshed the TTL, was not
     *         admitted ({@link #admit}), or was a goodbye from a far end this port did not hear
     * @throws IllegalArgumentException when {@code port} is not a valid netdev name
     */
    public List<NeighbourEvent> heard(String port, ProbeDatagram hello, long nowMs) {
        Names.plain("netdev", port);
        if (admit(port, hello) != Admission.OK) {
            return List.of();
        }
        SortedMap<PortRef, Neighbour> far = byPort.computeIfAbsent(port, p -> new TreeMap<>());
        Neighbour known = far.get(hello.farEnd());
        if (hello.goodbye()) {
            if (known == null) {
                dropIfEmpty(port);
                return List.of();
            }
            far.remove(hello.farEnd());
            size--;
            dropIfEmpty(port);
            return List.of(new NeighbourEvent.Lost(port, hello.farEnd(), LossCause.GOODBYE));
        }
        Neighbour now = Neighbour.from(hello, nowMs);
        far.put(now.farEnd(), now);
        nextExpiryMs = Math.min(nextExpiryMs, now.expiresAtMs());
        if (known == null) {
            size++;
            return List.of(new NeighbourEvent.Found(port, now));
        }
        if (known.incarnation() < now.incarnation()) {
            return List.of(new NeighbourEvent.Restarted(port, now, known.incarnation()));
        }
        return List.of();
    }

    /**
     * Forgets every far end whose TTL ran out.
     *
     * @param nowMs the current time, monotonic ms
     * @return one {@link NeighbourEvent.Lost} with {@link LossCause#EXPIRED} per far end forgotten,
     *         by port then far end
     */
    public List<NeighbourEvent> expire(long nowMs) {
        List<NeighbourEvent> events = new ArrayList<>();
        long next = Long.MAX_VALUE;
        for (Iterator<Map.Entry<String, SortedMap<PortRef, Neighbour>>> ports = byPort.entrySet().iterator(); ports.hasNext(); ) {
            Map.Entry<String, SortedMap<PortRef, Neighbour>> entry = ports.next();
            for (Iterator<Neighbour> far = entry.getValue().values().iterator(); far.hasNext(); ) {
                Neighbour n = far.next();
                if (ProbeTiming.expired(nowMs, n.expiresAtMs())) {
                    far.remove();
                    size--;
                    events.add(new NeighbourEvent.Lost(entry.getKey(), n.farEnd(), LossCause.EXPIRED));
                } else {
                    next = Math.min(next, n.expiresAtMs());
                }
            }
            if (entry.getValue().isEmpty()) {
                ports.remove();
            }
        }
        nextExpiryMs = next;
        return events;
    }

    /**
     * @return the time, in ms on the clock the hellos were heard by, before which no far end
     *         expires: the earliest expiry after {@link #expire}, and no later than it after any
     *         other change (a far end that leaves otherwise may leave it early);
     *         {@code Long.MAX_VALUE} when the table holds nothing that expires. O(1): the probe
     *         sweeps the table at this time rather than at a fixed period
     */
    public long nextExpiryMs() {
        return nextExpiryMs;
    }

    /**
     * Forgets everything a port heard, because it lost carrier or is no longer probed.
     *
     * @param port the local netdev
     * @return one {@link NeighbourEvent.Lost} with {@link LossCause#CARRIER} per far end it heard
     */
    public List<NeighbourEvent> carrierLost(String port) {
        SortedMap<PortRef, Neighbour> far = byPort.remove(port);
        if (far == null) {
            return List.of();
        }
        size -= far.size();
        List<NeighbourEvent> events = new ArrayList<>();
        for (PortRef farEnd : far.keySet()) {
            events.add(new NeighbourEvent.Lost(port, farEnd, LossCause.CARRIER));
        }
        return events;
    }

    /**
     * @return the far ends each port hears, ports in natural order ({@code en2 < en10}), far ends
     *         sorted; ports that hear nothing are absent. One far end is a cable; several are a
     *         shared segment. An immutable copy.
     */
    public Map<String, List<PortRef>> view() {
        Map<String, List<PortRef>> view = new LinkedHashMap<>();
        byPort.forEach((port, far) -> view.put(port, List.copyOf(far.keySet())));
        return Collections.unmodifiableMap(view);
    }

    /** @return like {@link #view()}, with each far end's details; an immutable copy */
    public Map<String, List<Neighbour>> neighbours() {
        Map<String, List<Neighbour>> all = new LinkedHashMap<>();
        byPort.forEach((port, far) -> all.put(port, List.copyOf(far.values())));
        return Collections.unmodifiableMap(all);
    }

    private void dropIfEmpty(String port) {
        SortedMap<PortRef, Neighbour> far = byPort.get(port);
        if (far != null && far.isEmpty()) {
            byPort.remove(port);
        }
    }
}
