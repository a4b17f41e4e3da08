package io.railmap.daemon.api;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds on what {@code /metrics} can grow to, as Micrometer filters on the daemon's registry: every
 * label takes a bounded set of values, whatever clients send.
 * <ul>
 *   <li>{@code method} (Vert.x's HTTP meters): the request's method name, which a client chooses
 *       freely ({@code FOO /healthz HTTP/1.1} is a valid request line). The methods of RFC 9110 and
 *       PATCH keep their name; every other becomes {@value #OTHER_METHOD}, one label value.</li>
 *   <li>{@code port} ({@code railmap.probe.*}): this node's netdevs, which come and go (docks,
 *       labs); at most {@value #MAX_PORT_LABELS} values, later ports are not metered.</li>
 *   <li>Every meter: at most {@value #MAX_METERS} time series in all, a last net for a label not
 *       foreseen here; a meter beyond it is not registered (its updates are dropped), and the first
 *       such is logged.</li>
 * </ul>
 * Filters apply when a meter is first made, and a meter id mapped onto an existing one is not
 * remembered under its original name (Micrometer's {@code MeterRegistry}), so a flood of distinct
 * methods costs no memory.
 */
public final class MeterLimits {
    private static final Logger LOG = System.getLogger(MeterLimits.class.getName());
    /** The label value of every method not in {@link #METHODS}. */
    public static final String OTHER_METHOD = "other";
    /** Methods that keep their own label value. */
    static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");
    /** Distinct {@code port} values of the probe's meters. */
    public static final int MAX_PORT_LABELS = 256;
    /** Time series in the whole registry. An idle daemon has about 80 lines of them in /metrics, a few more per probed port. */
    public static final int MAX_METERS = 2_000;

    private MeterLimits() {
    }

    /**
     * Adds the filters to a registry; call before any meter is registered (filters do not apply to
     * meters made before them).
     *
     * @param registry the daemon's registry
     * @return the registry
     */
    public static <R extends MeterRegistry> R apply(R registry) {
        registry.config()
                .meterFilter(MeterFilter.replaceTagValues("method", m -> OTHER_METHOD, METHODS.toArray(String[]::new)))
                .meterFilter(MeterFilter.maximumAllowableTags("railmap.probe", "port", MAX_PORT_LABELS, loggedDeny(
                        "the probe's meters reached " + MAX_PORT_LABELS + " distinct ports; further ports are not metered")))
                .meterFilter(new LoggedMaximum(MeterFilter.maximumAllowableMetrics(MAX_METERS)));
        return registry;
    }

    private static MeterFilter loggedDeny(String firstTime) {
        AtomicBoolean logged = new AtomicBoolean();
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                if (logged.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, firstTime + " (first left out: " + id.getName() + ")");
                }
                return MeterFilterReply.DENY;
            }
        };
    }

    /** Micrometer's global maximum, logging the first meter it denies. */
    private static final class LoggedMaximum implements MeterFilter {
        private final MeterFilter maximum;
        private final AtomicBoolean logged = new AtomicBoolean();

        LoggedMaximum(MeterFilter maximum) {
            this.maximum = maximum;
        }

        @Override
        public MeterFilterReply accept(Meter.Id id) {
            MeterFilterReply reply = maximum.accept(id);
            if (reply == MeterFilterReply.DENY && logged.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "/metrics reached " + MAX_METERS + " time series; further meters are not registered (first left out: "
                        + id.getName() + ")");
            }
            return reply;
        }
    }
}
