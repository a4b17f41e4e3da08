package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.daemon.engine.Engine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * While the intake's lock is held (a record being taken, a view being installed, or a JGroups thread
 * stuck inside), what the probe's and the API's event loops call on the intake still returns, and
 * the membership query, which {@code HealthWatch} uses to notice a stuck lock, waits for it.
 */
class RecordIntakeLockTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private final Engine engine = new Engine("a");
    private final ClusterMetrics metrics = new ClusterMetrics(new SimpleMeterRegistry(), () -> 0);
    private final RecordIntake intake = new RecordIntake(engine, metrics, System::nanoTime);
    private final CountDownLatch release = new CountDownLatch(1);
    private Thread holder;

    @BeforeEach
    void aThreadHoldsTheIntakesLock() throws InterruptedException {
        intake.view(1, List.of(new ViewMember("id-a", Optional.of("a"), "10.0.0.1:7800", true),
                new ViewMember("id-b", Optional.of("b"), "10.0.0.2:7800", false)));
        CountDownLatch holding = new CountDownLatch(1);
        holder = new Thread(() -> {
            synchronized (intake) {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "stuck-jgroups-thread");
        holder.start();
        assertThat(holding.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void letGo() throws InterruptedException {
        release.countDown();
        holder.join();
    }

    @Test
    void theOwnRecordsChangeAndTheViewsSizeNeverWait() throws Exception {
        CompletableFuture<Integer> onALoop = CompletableFuture.supplyAsync(() -> {
            intake.ownChanged(); // the probe's loop, on every neighbour event
            return intake.size(); // the API's loop, on every /metrics
        });

        assertThat(onALoop.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
    }

    @Test
    void theMembershipWaitsForTheLockSoThatHealthWatchNoticesItHeld() {
        CompletableFuture<Membership> query = CompletableFuture.supplyAsync(() -> intake.membership("railmap", id -> "?"));

        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !query.isDone());
        release.countDown();
        await().atMost(BOUND).until(query::isDone);
        assertThat(query.join().members()).hasSize(2);
    }
}
