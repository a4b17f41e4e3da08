package io.railmap.daemon.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ProbeTimingTest {

    @ParameterizedTest(name = "interval {0}, fast {1} x {2}: after {3} sent wait {4} ms")
    @CsvSource({
        // interval, fast interval, fast count, sent so far, delay
        "1000, 250, 8, 0, 250",
        "1000, 250, 8, 1, 250",
        "1000, 250, 8, 7, 250",
        "1000, 250, 8, 8, 1000",
        "1000, 250, 8, 9, 1000",
        "1000, 250, 8, 2147483647, 1000",
        "1000, 250, 0, 0, 1000",
        "1000, 250, 0, 1, 1000",
        "250, 50, 8, 3, 50",
        "250, 250, 8, 3, 250",
    })
    void fastStartThenTheSteadyInterval(long interval, long fast, int count, int sent, long delay) {
        assertThat(new ProbeTiming(interval, fast, count, 3.5).delayAfterMs(sent)).isEqualTo(delay);
    }

    @ParameterizedTest(name = "{0} ms x {1} -> TTL {2} ms")
    @CsvSource({
        "1000, 3.5, 3500",
        "250, 3.5, 875",
        "333, 3.5, 1166",
        "1000, 2, 2000",
        "10, 2.25, 23",
        "6000, 100, 600000",
    })
    void theTtlIsTheIntervalTimesTheFactorRoundedUp(long interval, double factor, long ttl) {
        assertThat(new ProbeTiming(interval, 10, 0, factor).ttlMs()).isEqualTo(ttl);
    }

    @ParameterizedTest(name = "heard at {0} with TTL {1}: expires at {2}")
    @CsvSource({
        "0, 3500, 3500",
        "1000, 0, 1000",
        "-5000, 3500, -1500",
        "9223372036854775000, 3500, 9223372036854775807",
    })
    void expiryIsHeardPlusTtlWithoutOverflow(long heard, long ttl, long expires) {
        assertThat(ProbeTiming.expiresAtMs(heard, ttl)).isEqualTo(expires);
    }

    @ParameterizedTest(name = "now {0}, expires {1}: expired {2}")
    @CsvSource({
        "3499, 3500, false",
        "3500, 3500, true",
        "3501, 3500, true",
        "-10, -5, false",
    })
    void aFarEndExpiresAtItsExpiryInstant(long now, long expires, boolean expired) {
        assertThat(ProbeTiming.expired(now, expires)).isEqualTo(expired);
    }

    @Test
    void thePresetsAreTheDocumentedOnes() {
        assertThat(ProbeTiming.DEFAULTS).isEqualTo(new ProbeTiming(1000, 250, 8, 3.5));
        assertThat(ProbeTiming.DEFAULTS.ttlMs()).isEqualTo(3500);
        assertThat(ProbeTiming.LAB).isEqualTo(new ProbeTiming(250, 50, 8, 3.5));
        assertThat(ProbeTiming.LAB.ttlMs()).isEqualTo(875);
    }

    @ParameterizedTest(name = "{0}, {1}, {2}, {3} is refused")
    @CsvSource({
        "9, 9, 0, 3.5",
        "1000, 9, 0, 3.5",
        "1000, 1001, 0, 3.5",
        "1000, 250, -1, 3.5",
        "1000, 250, 101, 3.5",
        "1000, 250, 8, 1.9",
        "1000, 250, 8, 100.1",
        "1000, 250, 8, NaN",
        "7000, 250, 8, 100",
    })
    void valuesOutOfRangeAreRefused(long interval, long fast, int count, double factor) {
        assertThatThrownBy(() -> new ProbeTiming(interval, fast, count, factor))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNegativeCountOfHellosIsRefused() {
        assertThatThrownBy(() -> ProbeTiming.DEFAULTS.delayAfterMs(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
