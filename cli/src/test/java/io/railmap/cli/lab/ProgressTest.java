package io.railmap.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code railmap lab up}'s progress on standard error, without a lab: as lines for logs, as a bar for terminals, and which is chosen. */
class ProgressTest {
    private static final String WAITING = "4/4 daemons answer, 3/4 hold every record, 6/8 cables seen by every daemon, 2/4 say the cluster agrees";
    private static final String DONE = "4/4 daemons answer, 4/4 hold every record, 8/8 cables seen by every daemon, 4/4 say the cluster agrees";

    private static String shown(Progress.Mode mode) {
        StringWriter text = new StringWriter();
        Progress progress = new Progress(new PrintWriter(text), mode);
        progress.show(0.25, WAITING);
        progress.show(0.5, WAITING);
        progress.show(3.25, DONE);
        progress.end();
        return text.toString();
    }

    @Test
    void linesAreWrittenOnlyWhenTheCountsChangeAndHoldNoControlCharacters() {
        assertThat(shown(Progress.Mode.LINE)).isEqualTo("railmap: lab up: 0.3 s: " + WAITING + "\n" + "railmap: lab up: 3.3 s: " + DONE + "\n");
    }

    /** Each look rewrites the line: carriage return, the line, erase to its end (ECMA-48 EL, ESC [ K); a newline at the end. */
    @Test
    void theBarRewritesOneLineAtEveryLookAndEndsIt() {
        assertThat(shown(Progress.Mode.BAR)).isEqualTo("\rrailmap: lab up: 0.3 s: " + WAITING + "\u001b[K"
                + "\rrailmap: lab up: 0.5 s: " + WAITING + "\u001b[K"
                + "\rrailmap: lab up: 3.3 s: " + DONE + "\u001b[K\n");
    }

    @Test
    void theBarIsChosenOnlyForATerminalOnStandardErrorWithAUsableTerm() {
        Optional<String> xterm = Optional.of("xterm-256color");
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/dev/pts/3")), xterm)).isTrue();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/dev/tty1")), Optional.of("linux"))).isTrue();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/dev/pts/3")), Optional.of("dumb"))).as("TERM=dumb").isFalse();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/dev/pts/3")), Optional.empty())).as("no TERM").isFalse();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/var/log/lab.log")), xterm)).as("a file").isFalse();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("pipe:[81234]")), xterm)).as("a pipe").isFalse();
        assertThat(Progress.Mode.terminal(Optional.of(Path.of("/dev/null")), xterm)).as("/dev/null").isFalse();
        assertThat(Progress.Mode.terminal(Optional.empty(), xterm)).as("unknown").isFalse();
    }

    /** Under surefire standard error is a pipe or a file, never a terminal: auto gives lines. */
    @Test
    void autoUnderTheTestRunnerGivesLines() {
        assertThat(Progress.Mode.detect()).isEqualTo(Progress.Mode.LINE);
        assertThat(shown(Progress.Mode.AUTO)).isEqualTo(shown(Progress.Mode.LINE));
    }
}
