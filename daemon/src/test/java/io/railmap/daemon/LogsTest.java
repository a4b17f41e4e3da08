package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class LogsTest {
    private static LogRecord at(long millis, String message) {
        LogRecord r = new LogRecord(Level.SEVERE, message);
        r.setInstant(java.time.Instant.ofEpochMilli(millis));
        r.setSourceClassName("org.jgroups.protocols.Encrypt");
        return r;
    }

    @Test
    void aRepeatedLibraryLineIsLoggedOncePerWindowAndEachDistinctLineOnce() {
        Logs.OncePer filter = new Logs.OncePer(600_000, 2, "org.jgroups.");
        String fromD = "a: rejected decryption of unicast message from non-member d";
        String fromE = "a: received message without encrypt header from e; dropping it";

        assertThat(filter.isLoggable(at(0, fromD))).isTrue();
        assertThat(filter.isLoggable(at(1_500, fromD))).isFalse();
        assertThat(filter.isLoggable(at(1_600, fromE))).isTrue();
        assertThat(filter.isLoggable(at(599_999, fromD))).isFalse();
        assertThat(filter.isLoggable(at(600_000, fromD))).isTrue();
        // only the two most recent lines are remembered: a third pushes the eldest out
        assertThat(filter.isLoggable(at(600_001, "third"))).isTrue();
        assertThat(filter.isLoggable(at(600_002, fromE))).isTrue();
    }

    @Test
    void linesOfOtherSourcesAllPass() {
        Logs.OncePer filter = new Logs.OncePer(600_000, 2, "org.jgroups.");
        LogRecord ours = new LogRecord(Level.INFO, "member c left: 2 members");
        ours.setLoggerName("io.railmap.daemon.cluster.Cluster");
        assertThat(filter.isLoggable(ours)).isTrue();
        assertThat(filter.isLoggable(ours)).isTrue();
    }
}
