package io.railmap.bench;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.Failures;
import io.railmap.cli.UserError;
import io.railmap.cli.options.OutputFile;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Snapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Parses a bench program's command line with picocli, as {@code railmap} does its own: {@code --help}
 * prints the usage to standard output and exits {@link ExitCodes#OK}; a bad option or value (unknown,
 * missing, not a number, out of range) prints one line naming it, then picocli's suggestions or where
 * to find the usage, to standard error, and exits {@link ExitCodes#INPUT}. Never a stack trace.
 */
final class BenchCommandLine {
    /** What picocli cannot check of a command's values: ranges, names, files. */
    interface Checked {
        /**
         * @param line the command line the values were parsed by
         * @throws ParameterException naming the option or parameter, what is wrong and what to give
         */
        void check(CommandLine line);
    }

    private BenchCommandLine() {
    }

    /**
     * Fills {@code command}'s {@code @Option} and {@code @Parameters} fields from {@code args}, then
     * runs its {@link Checked#check} if it has one.
     *
     * @param command an instance of a picocli {@code @Command} class, whose fields take the values
     * @param args    the program's arguments
     * @param out     where {@code --help} prints the usage
     * @param err     where a mistake is reported
     * @return the exit code when the program is to stop now ({@code --help}: {@link ExitCodes#OK}; a
     *         mistake: {@link ExitCodes#INPUT}); empty when {@code command} holds good values to run with
     */
    static OptionalInt parse(Object command, String[] args, PrintWriter out, PrintWriter err) {
        CommandLine line = new CommandLine(command);
        line.setOut(out);
        line.setErr(err);
        line.setUsageHelpWidth(100);
        line.setUsageHelpAutoWidth(true);
        try {
            line.parseArgs(args);
            if (line.isUsageHelpRequested()) {
                line.usage(out);
                out.flush();
                return OptionalInt.of(ExitCodes.OK);
            }
            if (command instanceof Checked checked) {
                checked.check(line);
            }
            return OptionalInt.empty();
        } catch (ParameterException e) {
            String name = line.getCommandName();
            return OptionalInt.of(Failures.badArguments(e, name, name + " --help"));
        }
    }

    /**
     * As {@link #within} with no upper bound but the type's.
     *
     * @throws ParameterException when {@code value} is less than {@code least}
     */
    static void atLeast(CommandLine line, String input, long value, long least, String what) {
        within(line, input, value, least, Long.MAX_VALUE, what);
    }

    /**
     * @param line  the command line being checked
     * @param input what the value was given as, e.g. {@code option '--idle-s'} or {@code SIZE}
     * @param value the value given
     * @param least the least value allowed
     * @param most  the most allowed ({@link Long#MAX_VALUE}: no more than the value's type holds)
     * @param what  what the value is and why the bounds, e.g. {@code the idle window, in seconds}
     * @throws ParameterException when {@code value} is outside {@code least} to {@code most}, naming the
     *                            input, the value, what it is and what to give
     */
    static void within(CommandLine line, String input, long value, long least, long most, String what) {
        if (value >= least && value <= most) {
            return;
        }
        String give = most == Long.MAX_VALUE ? least + " or more" : least + " to " + most;
        throw new ParameterException(line, "Invalid value for " + input + ": " + value + " is " + (value < least ? "less than " + least
                : "more than " + most) + " (" + what + "); give " + give);
    }

    /**
     * Makes a synthetic snapshot and writes it whole to {@code file} ({@link OutputFile}, named as the
     * parameter {@code FILE}); a file that cannot be written, or a snapshot too large for the heap, is
     * one line on standard error and exit {@link ExitCodes#INPUT}.
     *
     * @param program  the program's name, first on an error line
     * @param file     where to write
     * @param nodes    how many nodes the snapshot has, for the out-of-memory line
     * @param snapshot makes the snapshot
     */
    static void writeSnapshot(String program, Path file, int nodes, Supplier<Snapshot> snapshot) {
        try {
            OutputFile.write(file, SnapshotCodec.write(snapshot.get()), "FILE");
        } catch (UserError e) {
            System.err.println(program + ": " + e.getMessage());
            System.exit(ExitCodes.INPUT);
        } catch (OutOfMemoryError e) {
            System.err.println(program + ": out of memory: " + nodes + " nodes need more than this JVM's "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MB of heap; give it more with -Xmx, or fewer nodes");
            System.exit(ExitCodes.INPUT);
        }
    }
}
