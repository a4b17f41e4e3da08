package io.railmap.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real child processes through {@code /bin/sh}: every way a helper program can misbehave ends within its bounds. */
class BoundedCommandTest {
    private static final Duration LIMIT = Duration.ofSeconds(2);

    @Test
    void returnsStandardOutputOnly() throws Exception {
        assertThat(BoundedCommand.run(List.of("sh", "-c", "printf '{\"lldp\": [{}]}\\n'; echo noise >&2"), LIMIT, 1024))
                .isEqualTo("{\"lldp\": [{}]}\n");
    }

    @Test
    void mergedOutputKeepsStandardErrorAndQuotesItOnFailure() throws Exception {
        assertThat(BoundedCommand.runMerged(List.of("sh", "-c", "echo out; echo err >&2"), LIMIT, 1024)).isEqualTo("out\nerr\n");
        assertThatThrownBy(() -> BoundedCommand.runMerged(List.of("sh", "-c", "echo 'RTNETLINK answers: File exists'; exit 2"), LIMIT, 1024))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageEndingWith("exit status 2: RTNETLINK answers: File exists");
    }

    @Test
    void aNonZeroExitQuotesTheStartOfStandardErrorEscaped() {
        assertThatThrownBy(() -> BoundedCommand.run(List.of("sh", "-c",
                "echo '[WARN/control] unable to connect to socket /run/lldpd.socket: No such file or directory' >&2; exit 1"), LIMIT, 1024))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageEndingWith("exit status 1: [WARN/control] unable to connect to socket /run/lldpd.socket: No such file or directory")
                .satisfies(e -> assertThat(((CommandFailedException) e).notStarted()).isFalse());
    }

    @Test
    @Timeout(20)
    void aChildThatNeverAnswersIsKilledAtTheTimeLimitWithWhatItStarted() {
        assertThatThrownBy(() -> BoundedCommand.run(List.of("sh", "-c", "sleep 60 & sleep 60"), Duration.ofMillis(300), 1024))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageEndingWith(": no answer within 300 ms; stopped");
    }

    @Test
    @Timeout(20)
    void anEndlessOutputIsCutAtTheLimitAndTheChildKilled() {
        assertThatThrownBy(() -> BoundedCommand.run(List.of("sh", "-c", "yes lldp"), Duration.ofSeconds(10), 64 * 1024))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageEndingWith(": printed more than 65536 bytes, more than its answer needs; stopped");
    }

    @Test
    void outputThatIsNotUtf8IsRefused() {
        assertThatThrownBy(() -> BoundedCommand.run(List.of("sh", "-c", "printf '\\377\\376'"), LIMIT, 1024))
                .isInstanceOf(CommandFailedException.class).hasMessageEndingWith(": printed text that is not UTF-8");
    }

    @Test
    void aMissingProgramIsNotStartedAndSaysSo() {
        assertThatThrownBy(() -> BoundedCommand.run(List.of("railmap-no-such-program", "show"), LIMIT, 1024))
                .isInstanceOf(CommandFailedException.class)
                .hasMessageStartingWith("railmap-no-such-program show: cannot run")
                .satisfies(e -> assertThat(((CommandFailedException) e).notStarted()).isTrue());
        assertThat(BoundedCommand.locate("railmap-no-such-program")).isEmpty();
        assertThat(BoundedCommand.locate("sh")).isPresent();
    }
}
