package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link StopDeadline} with the halt caught (the test JVM must live on): a clean stop halts with 0,
 * a stop that hangs is halted with 4 at the deadline.
 */
class StopDeadlineTest {
    @Test
    void aStopThatFinishesHaltsWithZero() throws Exception {
        LinkedBlockingQueue<Integer> halts = new LinkedBlockingQueue<>();
        StopDeadline.run(() -> { }, 60_000, halts::add);
        assertThat(halts.poll(10, TimeUnit.SECONDS)).isEqualTo(StopDeadline.EXIT_STOPPED);
        assertThat(halts.poll(200, TimeUnit.MILLISECONDS)).as("the deadline was called off").isNull();
    }

    @Test
    void aStopThatHangsIsHaltedWithFourAtTheDeadline() throws Exception {
        LinkedBlockingQueue<Integer> halts = new LinkedBlockingQueue<>();
        CountDownLatch never = new CountDownLatch(1);
        Thread stopping = new Thread(() -> StopDeadline.run(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 300, halts::add), "test-stopping");
        stopping.start();
        try {
            assertThat(halts.poll(10, TimeUnit.SECONDS)).isEqualTo(StopDeadline.EXIT_HALTED);
        } finally {
            never.countDown();
            stopping.join(10_000);
        }
    }

    @Test
    void aStopThatThrowsStillHaltsWithZero() throws Exception {
        LinkedBlockingQueue<Integer> halts = new LinkedBlockingQueue<>();
        StopDeadline.run(() -> {
            throw new IllegalStateException("a part failed to close");
        }, 60_000, halts::add);
        assertThat(halts.poll(10, TimeUnit.SECONDS)).isEqualTo(StopDeadline.EXIT_STOPPED);
    }
}
