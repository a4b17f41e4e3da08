package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The service's refusals, in this JVM's own network namespace (no port is probed here, so nothing
 * is sent). What it does with real ports is in {@link ProbeNamespaceTest}.
 */
class ProbeServiceTest {
    private Vertx vertx;
    private ProbeService probe;
    private final Logger logger = Logger.getLogger(ProbeService.class.getName());
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel() == Level.WARNING) {
                warnings.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void deploy() throws Exception {
        try (DatagramChannel ipv6 = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            ipv6.bind(new InetSocketAddress("::", 0));
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "IPv6 sockets do not work on this machine: " + e);
        }
        logger.addHandler(capture);
        vertx = Vertx.vertx();
        // A port of its own, so that a daemon on this machine is not disturbed.
        ProbeConfig config = ProbeConfig.defaults("lab", "a", 1, "127.0.0.1:7246").withGroup(ProbeConfig.DEFAULT_GROUP, 17245);
        probe = new ProbeService(config, new SimpleMeterRegistry());
        get(vertx.deployVerticle(probe));
    }

    @AfterEach
    void close() throws Exception {
        logger.removeHandler(capture);
        if (vertx != null) {
            get(vertx.close());
        }
    }

    @Test
    void withoutAKeyTheProbeSaysOnceAtStartThatAnyLocalUserCanForgeHellosAndProbeMdQuotesTheLine() throws Exception {
        // deployed in deploy() without a key
        assertThat(warnings).containsOnlyOnce(ProbeService.KEYLESS_WARNING);
        assertThat(ProbeService.KEYLESS_WARNING).contains("NOT authenticated", "any user of this node",
                "a link-local address that is not this machine's", "any host on a cable", "--cluster-key-file");
        // surefire runs in the module's directory
        assertThat(Files.readString(Path.of("PROBE.md"))).contains("WARNING ProbeService: " + ProbeService.KEYLESS_WARNING + "\n");
    }

    @Test
    void withAKeyTheProbeGivesNoSuchWarning() throws Exception {
        warnings.clear();
        ProbeConfig keyed = ProbeConfig.defaults("lab", "a", 1, "127.0.0.1:7246").withGroup(ProbeConfig.DEFAULT_GROUP, 17247)
                .withKey(Optional.of(ProbeKeys.of("cluster")));
        get(vertx.deployVerticle(new ProbeService(keyed, new SimpleMeterRegistry())));

        assertThat(warnings).doesNotContain(ProbeService.KEYLESS_WARNING);
    }

    @Test
    void aPortThatDoesNotExistIsRefusedWithItsName() {
        assertThat(failure(probe.portUp(ProbePort.of("rmprobe-none0"))))
                .isInstanceOf(IllegalStateException.class).hasMessage("port rmprobe-none0: no such interface");
        assertThat(probe.probedPorts()).isEmpty();
    }

    @Test
    void theLoopbackInterfaceIsRefusedForLackOfALinkLayerAddress() {
        assertThat(failure(probe.portUp(ProbePort.of("lo"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no link-layer address");
    }

    @Test
    void takingDownAPortThatIsNotProbedDoesNothing() throws Exception {
        get(probe.portDown("en6"));
        assertThat(probe.neighbours()).isEmpty();
    }

    @Test
    void aProbeThatIsNotDeployedRefusesPorts() {
        ProbeService idle = new ProbeService(ProbeConfig.defaults("lab", "a", 1, "127.0.0.1:7246"), new SimpleMeterRegistry());
        assertThat(failure(idle.portUp(ProbePort.of("en6")))).hasMessage("the probe is not deployed");
        assertThat(failure(idle.portDown("en6"))).hasMessage("the probe is not deployed");
    }

    private static <T> T get(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static Throwable failure(Future<?> future) {
        CompletableFuture<?> done = future.toCompletionStage().toCompletableFuture();
        try {
            done.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError("no answer within 10 s", e);
        }
        throw new AssertionError("succeeded, but should have failed");
    }
}
