package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.railmap.daemon.testing.RawConnection;
import io.railmap.daemon.engine.Engine;
import io.railmap.daemon.cluster.Membership;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The registry filters of {@link MeterLimits}: every label stays within a bounded set of values. */
class MeterLimitsTest {
    private static Set<String> values(PrometheusMeterRegistry registry, String prefix, String tag) {
        return registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith(prefix))
                .map(id -> id.getTag(tag)).filter(v -> v != null).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void thousandsOfMadeUpMethodsOnARealServerAreOneLabelValue() throws Exception {
        PrometheusMeterRegistry registry = MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Vertx vertx = Vertx.builder().withMetrics(new MicrometerMetricsFactory(registry))
                .with(new io.vertx.core.VertxOptions().setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true))).build();
        try {
            ApiVerticle api = new ApiVerticle(new Engine("a"), () -> new Membership("t", 1, List.of()), registry, "127.0.0.1", 0,
                    Optional.empty());
            vertx.deployVerticle(api).await(10, TimeUnit.SECONDS);
            Random random = new Random(8);
            try (RawConnection c = RawConnection.tcp(api.actualPort())) {
                for (int i = 0; i < 2_000; i++) {
                    String method = "M" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
                    assertThat(c.send(method + " /healthz HTTP/1.1\r\nHost: a\r\n\r\n").read(Duration.ofSeconds(10)).status()).isEqualTo(405);
                }
                assertThat(c.send("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n").read(Duration.ofSeconds(10)).status()).isEqualTo(200);
            }
            assertThat(values(registry, "vertx.http.server", "method")).containsExactly("GET", MeterLimits.OTHER_METHOD);
            assertThat(registry.find("vertx.http.server.requests").tag("method", MeterLimits.OTHER_METHOD).tag("code", "405").counter().count())
                    .isEqualTo(2_000);
        } finally {
            vertx.close().await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theProbesPortLabelStopsAtItsMaximum() {
        PrometheusMeterRegistry registry = MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        for (int i = 0; i < MeterLimits.MAX_PORT_LABELS + 100; i++) {
            Counter.builder("railmap.probe.sent").tag("port", "veth" + i).register(registry).increment();
        }
        assertThat(values(registry, "railmap.probe", "port")).hasSize(MeterLimits.MAX_PORT_LABELS);
        Counter.builder("railmap.probe.sent").tag("port", "veth0").register(registry).increment();
        assertThat(registry.find("railmap.probe.sent").tag("port", "veth0").counter().count()).as("a port within the bound").isEqualTo(2);
    }

    @Test
    void theWholeRegistryStopsAtItsMaximum() {
        PrometheusMeterRegistry registry = MeterLimits.apply(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        for (int i = 0; i < MeterLimits.MAX_METERS + 500; i++) {
            Counter.builder("unforeseen").tag("label", "v" + i).register(registry).increment();
        }
        assertThat(registry.getMeters()).hasSize(MeterLimits.MAX_METERS);
    }
}
