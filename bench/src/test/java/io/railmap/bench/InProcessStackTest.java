package io.railmap.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Members of the daemon's cluster in one JVM over JGroups' SHARED_LOOPBACK ({@link InProcessStack}),
 * as {@code ClusterBench --in-process} runs them: they share every record, a changed record reaches
 * each, and a member killed or stopped in the JVM leaves every other's holdings. Lab timing (3 s
 * heartbeat timeout), no key, a port of its own.
 */
class InProcessStackTest {
    private static final int PORT = 17_400;
    private static final int SIZE = 5;
    private final List<WorkerMember> members = new ArrayList<>();

    @AfterEach
    void close() {
        members.forEach(WorkerMember::close);
    }

    @Test
    void membersInOneJvmShareRecordsAndDropAKilledAndAStoppedMember() {
        SyntheticCluster shape = new SyntheticCluster(SIZE, false);
        List<Seed> seeds = List.of(new Seed(WorkerMember.address(0).getHostAddress(), PORT));
        for (int i = 0; i < SIZE; i++) {
            members.add(new WorkerMember(shape, i, PORT, seeds, ClusterTiming.LAB, Optional.empty(), true));
        }
        members.forEach(WorkerMember::start);
        await().atMost(Duration.ofSeconds(30)).until(() -> members.stream().allMatch(m -> m.versions().size() == SIZE));

        long version = members.get(1).change();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> members.stream().allMatch(m -> m.versions().get(SyntheticCluster.node(1)) == version));

        members.get(3).halt(true);
        List<WorkerMember> alive = List.of(members.get(0), members.get(1), members.get(2), members.get(4));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> alive.stream().noneMatch(m -> m.versions().containsKey(SyntheticCluster.node(3))));

        members.get(4).halt(false);
        await().atMost(Duration.ofSeconds(30)).until(() -> alive.subList(0, 3).stream()
                .noneMatch(m -> m.versions().containsKey(SyntheticCluster.node(4))));
    }

    @Test
    void onlyMembersInOneJvmAreHaltedInIt() {
        WorkerMember overTcp = new WorkerMember(new SyntheticCluster(SIZE, false), 0, PORT, List.of(), ClusterTiming.LAB, Optional.empty(), false);
        members.add(overTcp);

        assertThatThrownBy(() -> overTcp.halt(false)).isInstanceOf(IllegalStateException.class).hasMessageContaining("one JVM");
    }
}
