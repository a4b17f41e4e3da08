package io.railmap.daemon.cluster.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterTimingTest {
    @Test
    void theDefaultsMeetTheRequirements() {
        // a killed daemon dropped within 3 s, a frozen one within 10 s
        assertThat(ClusterTiming.DEFAULTS.killBoundMs()).isLessThanOrEqualTo(3_000);
        assertThat(ClusterTiming.DEFAULTS.freezeBoundMs()).isLessThanOrEqualTo(10_000);
        assertThat(ClusterTiming.LAB.freezeBoundMs()).isLessThan(ClusterTiming.DEFAULTS.freezeBoundMs());
    }

    @Test
    void boundsFollowTheirFormulas() {
        // join, hb interval, hb timeout, verify, merge min, merge max, view ack, connect, leave, xmit
        record Row(ClusterTiming t, long kill, long freeze, long check, long heal) {
        }
        Row[] rows = {
            new Row(ClusterTiming.DEFAULTS, 2_000, 10_000, 6_400, 6_000 + 6_400 + 1_000 + 500),
            new Row(ClusterTiming.LAB, 1_500, 5_000, 1_600, 1_500 + 1_600 + 1_000 + 500),
            new Row(new ClusterTiming(100, 10, 20, 10, 10, 20, 10, 10, 10, 10), 1_010, 1_040, 32, 30 + 32 + 1_000 + 20),
        };
        for (Row row : rows) {
            assertThat(row.t().killBoundMs()).as("kill bound of %s", row.t()).isEqualTo(row.kill());
            assertThat(row.t().freezeBoundMs()).as("freeze bound of %s", row.t()).isEqualTo(row.freeze());
            assertThat(row.t().mergeCheckIntervalMs()).as("check interval of %s", row.t()).isEqualTo(row.check());
            assertThat(row.t().healBoundMs()).as("heal bound of %s", row.t()).isEqualTo(row.heal());
        }
    }

    @Test
    void heartbeatsMergeRoundsAndRetransmissionStretchOnlyAboveThirtyTwoMembers() {
        // members, stretch, heartbeat interval, heartbeat timeout, merge max, freeze bound, retransmit interval (default timing)
        long[][] rows = {
            {1, 1, 2_000, 6_000, 4_000, 10_000, 250},
            {8, 1, 2_000, 6_000, 4_000, 10_000, 250},
            {32, 1, 2_000, 6_000, 4_000, 10_000, 250},
            {33, 2, 4_000, 12_000, 8_000, 18_000, 500},
            {64, 2, 4_000, 12_000, 8_000, 18_000, 500},
            {256, 8, 16_000, 48_000, 32_000, 66_000, 2_000},
            {1_024, 32, 64_000, 192_000, 128_000, 258_000, 8_000},
        };
        for (long[] row : rows) {
            int members = (int) row[0];
            ClusterTiming t = ClusterTiming.DEFAULTS.forView(members);
            assertThat(ClusterTiming.stretch(members)).as("stretch at %d", members).isEqualTo(row[1]);
            assertThat(t.heartbeatIntervalMs()).as("heartbeat interval at %d", members).isEqualTo(row[2]);
            assertThat(t.heartbeatTimeoutMs()).as("heartbeat timeout at %d", members).isEqualTo(row[3]);
            assertThat(t.mergeMaxIntervalMs()).as("merge max at %d", members).isEqualTo(row[4]);
            assertThat(t.mergeMinIntervalMs()).as("merge min at %d", members).isEqualTo(row[4] / 2);
            assertThat(t.freezeBoundMs()).as("freeze bound at %d", members).isEqualTo(row[5]);
            assertThat(t.repairGraceMs()).as("repair grace at %d: the freeze bound", members).isEqualTo(row[5]);
            assertThat(t.retransmitIntervalMs()).as("retransmit interval at %d", members).isEqualTo(row[6]);
            assertThat(t.withHeartbeats(2_000, 6_000).withMergeIntervals(2_000, 4_000).withRetransmitInterval(250))
                    .as("nothing else changes at %d", members)
                    .isEqualTo(ClusterTiming.DEFAULTS);
        }
        assertThat(ClusterTiming.DEFAULTS.forView(32)).isSameAs(ClusterTiming.DEFAULTS);
        assertThat(ClusterTiming.LAB.forView(8)).isSameAs(ClusterTiming.LAB);
    }

    @Test
    void theLabPresetDiffersFromTheDefaultsOnlyInItsDeltas() {
        ClusterTiming lab = ClusterTiming.LAB;
        ClusterTiming d = ClusterTiming.DEFAULTS;
        assertThat(lab).isEqualTo(new ClusterTiming(500, 500, 3_000, 500, 500, 1_000, d.viewAckTimeoutMs(), d.connectTimeoutMs(),
                d.leaveTimeoutMs(), d.retransmitIntervalMs()));
        assertThat(ClusterTiming.preset("LAB")).isSameAs(lab);
        assertThat(ClusterTiming.preset("default")).isSameAs(d);
    }

    @Test
    void nonsenseIsRefusedWithTheSettingNamed() {
        assertThatThrownBy(() -> ClusterTiming.DEFAULTS.withHeartbeats(5_000, 5_000)).hasMessageContaining("heartbeat interval 5000 ms");
        assertThatThrownBy(() -> ClusterTiming.DEFAULTS.withMergeIntervals(3_000, 2_000)).hasMessageContaining("merge minimum");
        assertThatThrownBy(() -> ClusterTiming.DEFAULTS.withVerifyTimeout(5)).hasMessageContaining("verify timeout 5 ms");
        assertThatThrownBy(() -> ClusterTiming.preset("fast")).hasMessage("cluster timing \"fast\" is not default or lab");
    }
}
