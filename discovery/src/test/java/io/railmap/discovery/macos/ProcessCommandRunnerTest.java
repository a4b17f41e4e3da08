package io.railmap.discovery.macos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs real child processes through {@code /bin/sh}, as the runner does with the macOS commands. */
class ProcessCommandRunnerTest {
    private final ProcessCommandRunner runner = new ProcessCommandRunner(Duration.ofMillis(500));

    @Test
    void returnsStandardOutputOnly() throws Exception {
        CommandOutput out = runner.run(List.of("sh", "-c", "printf 'Device: en2\\n'; echo noise >&2"));

        assertThat(out.text()).isEqualTo("Device: en2\n");
        assertThat(out.source()).startsWith("sh -c");
    }

    @Test
    void aNonZeroExitFailsQuotingStandardError() {
        assertThatThrownBy(() -> runner.run(List.of("sh", "-c", "echo 'No IB devices found' >&2; exit 3")))
                .isInstanceOf(CommandException.class)
                .hasMessageEndingWith("exit status 3: No IB devices found");
    }

    @Test
    void aCommandPastTheTimeLimitIsStopped() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> runner.run(List.of("sh", "-c", "sleep 30")))
                .isInstanceOf(CommandException.class)
                .hasMessageContaining("no answer within 500 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aMissingProgramFailsNamingIt() {
        assertThatThrownBy(() -> runner.run(List.of("railmap-no-such-program", "status")))
                .isInstanceOf(CommandException.class)
                .hasMessageStartingWith("railmap-no-such-program status: cannot run");
    }
}
