package io.railmap.cli.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * How {@code railmap lab up} shows what it waits for on standard error: {@code railmap: lab up: 3.2 s: <counts>}.
 * As a bar, one line rewritten in place ({@code \r}, the line, then {@code ESC [ K}, erase to the end
 * of the line: ECMA-48 EL) at every look and ended by a newline; as lines, one line each time the
 * counts change, for logs. Not thread-safe.
 */
final class Progress {
    /** How the progress is shown ({@code --progress}). */
    enum Mode {
        /** {@link #BAR} when standard error is a terminal ({@link #detect}), else {@link #LINE}. */
        AUTO,
        /** A line each time the counts change. */
        LINE,
        /** One line rewritten in place. */
        BAR;

        /**
         * Java cannot ask whether standard error is a terminal ({@code System.console()} looks at
         * standard input and output, and on JDK 22 and later is there even when they are redirected),
         * so on Linux this reads what {@code /proc/self/fd/2} names.
         *
         * @return {@link #BAR} when standard error is a terminal ({@link #terminal}) and {@code TERM}
         *         names one that can erase a line, else {@link #LINE}
         */
        static Mode detect() {
            Optional<Path> stderr;
            try {
                stderr = Optional.of(Files.readSymbolicLink(Path.of("/proc/self/fd/2")));
            } catch (IOException | UnsupportedOperationException e) {
                stderr = Optional.empty(); // no /proc (not Linux): assume a log
            }
            return terminal(stderr, Optional.ofNullable(System.getenv("TERM"))) ? BAR : LINE;
        }

        /**
         * @param stderr what standard error's descriptor names ({@code /dev/pts/3}, {@code /tmp/log},
         *               {@code pipe:[1234]}), empty when unknown
         * @param term   the {@code TERM} variable
         * @return true for a pseudo-terminal ({@code /dev/pts/N}) or a console ({@code /dev/ttyN},
         *         {@code /dev/console}) with a {@code TERM} other than {@code dumb}
         */
        static boolean terminal(Optional<Path> stderr, Optional<String> term) {
            boolean tty = stderr.map(Path::toString)
                    .filter(p -> p.startsWith("/dev/pts/") || p.startsWith("/dev/tty") || p.equals("/dev/console")).isPresent();
            return tty && term.filter(t -> !t.isEmpty() && !t.equals("dumb")).isPresent();
        }
    }

    private final PrintWriter err;
    private final boolean bar;
    private String shown = "";

    /**
     * @param err  standard error
     * @param mode {@link Mode#LINE} or {@link Mode#BAR}; {@link Mode#AUTO} is {@link Mode#detect}ed here
     */
    Progress(PrintWriter err, Mode mode) {
        this.err = err;
        this.bar = (mode == Mode.AUTO ? Mode.detect() : mode) == Mode.BAR;
    }

    /**
     * Shows the counts at one look.
     *
     * @param seconds since the wait began
     * @param counts  what is waited for and how far it is ({@link LabSetup.Agreement#progress()})
     */
    void show(double seconds, String counts) {
        String line = String.format(Locale.ROOT, "railmap: lab up: %.1f s: %s", seconds, counts);
        if (bar) {
            err.print("\r" + line + "\u001b[K");
            err.flush();
        } else if (!counts.equals(shown)) {
            err.println(line);
            err.flush();
        }
        shown = counts;
    }

    /** Ends the bar's line, so what follows starts on a line of its own; nothing for lines. */
    void end() {
        if (bar) {
            err.println();
            err.flush();
        }
    }
}
