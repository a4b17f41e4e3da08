package io.railmap.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real child processes through {@code /bin/sh}: a child past its time is ended with what it started. */
class ProcessTreeTest {
    @Test
    @Timeout(20)
    void aChildPastItsTimeIsEndedWithItsDescendants() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "sleep 60 & sleep 60").start();
        Thread.sleep(200);
        List<ProcessHandle> tree = p.descendants().toList();
        assertThat(ProcessTree.waitFor(p, Duration.ofMillis(100), Duration.ofMillis(500))).isFalse();
        assertThat(p.isAlive()).isFalse();
        for (ProcessHandle h : tree) {
            h.onExit().get();
        }
        assertThat(tree).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    @Timeout(20)
    void aChildThatIgnoresSigtermIsKilledAfterTheGrace() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "trap '' TERM; sleep 60").start();
        Thread.sleep(200);
        long start = System.nanoTime();
        ProcessTree.end(p, Duration.ofMillis(300));
        p.onExit().get();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    }

    @Test
    void aChildThatExitsInTimeIsLeftAlone() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertThat(ProcessTree.waitFor(p, Duration.ofSeconds(10), Duration.ZERO)).isTrue();
        assertThat(p.exitValue()).isZero();
    }
}
