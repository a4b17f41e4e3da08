package io.railmap.daemon.probe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * The probe's counters, registered on the {@link MeterRegistry} the daemon passes in (a Prometheus
 * registry in the daemon, any registry in tests). Names, with their Prometheus spelling:
 * <ul>
 *   <li>{@value #SENT} (tag {@code port}): hellos and goodbyes handed to the kernel
 *       ({@code railmap_probe_sent_total});</li>
 *   <li>{@value #SEND_FAILURES} (tag {@code port}): sends the kernel refused, e.g. on a port without
 *       carrier ({@code railmap_probe_send_failures_total});</li>
 *   <li>{@value #RECEIVED} (tag {@code port}, the arrival port): hellos and goodbyes accepted
 *       ({@code railmap_probe_received_total});</li>
 *   <li>{@value #DROPPED} (tag {@code reason}, a {@link DropReason#tag()}): datagrams thrown away
 *       ({@code railmap_probe_dropped_total}). Every reason is registered at zero up front.</li>
 * </ul>
 * Every datagram read from the socket is counted exactly once, as received or as dropped.
 * Thread-safe, as Micrometer counters are.
 */
public final class ProbeMetrics {
    /** Counter of datagrams sent, tagged {@code port}. */
    public static final String SENT = "railmap.probe.sent";
    /** Counter of failed sends, tagged {@code port}. */
    public static final String SEND_FAILURES = "railmap.probe.send.failures";
    /** Counter of datagrams accepted, tagged {@code port}. */
    public static final String RECEIVED = "railmap.probe.received";
    /** Counter of datagrams dropped, tagged {@code reason}. */
    public static final String DROPPED = "railmap.probe.dropped";

    private final MeterRegistry registry;

    /** @param registry where the counters live */
    public ProbeMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        for (DropReason reason : DropReason.values()) {
            droppedCounter(reason);
        }
    }

    /** Counts one datagram sent on a port. */
    public void sent(String port) {
        perPort(SENT, "Probe datagrams sent", port).increment();
    }

    /** Counts one send refused on a port. */
    public void sendFailed(String port) {
        perPort(SEND_FAILURES, "Probe datagrams the kernel refused to send", port).increment();
    }

    /** Counts one datagram accepted on its arrival port. */
    public void received(String port) {
        perPort(RECEIVED, "Probe datagrams accepted", port).increment();
    }

    /** Counts one datagram dropped. */
    public void dropped(DropReason reason) {
        droppedCounter(reason).increment();
    }

    /** @return how many datagrams were dropped for this reason so far */
    public long droppedCount(DropReason reason) {
        return (long) droppedCounter(reason).count();
    }

    private Counter droppedCounter(DropReason reason) {
        return Counter.builder(DROPPED).description("Probe datagrams dropped, by reason")
                .tag("reason", reason.tag()).register(registry);
    }

    private Counter perPort(String name, String description, String port) {
        return Counter.builder(name).description(description).tag("port", port).register(registry);
    }
}
