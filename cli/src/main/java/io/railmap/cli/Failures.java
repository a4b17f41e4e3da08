package io.railmap.cli;

import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.NoRingException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The one place where exceptions become messages and exit codes: a bad option or a user mistake
 * ({@link UserError}, {@link IllegalArgumentException}, including the codecs' format errors) prints
 * {@code railmap: <message>} and exits {@link ExitCodes#INPUT}; no ring exits
 * {@link ExitCodes#NO_RING}; a watched node away too long {@link ExitCodes#NODE_AWAY}; anything else is a bug: one line, exit {@link ExitCodes#INTERNAL}, and
 * the stack trace only when {@code RAILMAP_DEBUG} is set.
 */
public final class Failures implements IExecutionExceptionHandler, IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        return badArguments(e, "railmap", "railmap " + commandPath(e.getCommandLine()) + "--help");
    }

    /**
     * Reports a bad command line on the command's standard error: {@code program: <picocli's
     * message>} (the argument as given, escaped and cut to 512 bytes), then picocli's suggestions for
     * a mistyped option or {@code Try '<help>' for usage.}. Shared by {@code railmap} and the bench
     * programs.
     *
     * @param e       what picocli refused
     * @param program the program's name, first on the line
     * @param help    the command that prints the usage
     * @return {@link ExitCodes#INPUT}
     */
    public static int badArguments(ParameterException e, String program, String help) {
        PrintWriter err = e.getCommandLine().getErr();
        // picocli's message quotes the argument as given
        err.println(program + ": " + Names.escape(e.getMessage(), 512));
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
            err.println("Try '" + help + "' for usage.");
        }
        err.flush();
        return ExitCodes.INPUT;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        int code;
        if (e instanceof NoRingException) {
            err.println("railmap: " + e.getMessage());
            code = ExitCodes.NO_RING;
        } else if (e instanceof io.railmap.cli.client.DaemonClient.DaemonUnreachable) {
            err.println("railmap: " + e.getMessage());
            code = ExitCodes.DAEMON;
        } else if (e instanceof io.railmap.cli.follow.NodeAway) {
            err.println("railmap: " + e.getMessage());
            code = ExitCodes.NODE_AWAY;
        } else if (e instanceof io.railmap.lab.LabException) {
            err.println("railmap: lab: " + e.getMessage());
            code = ExitCodes.LAB;
        } else if (e instanceof UserError || e instanceof IllegalArgumentException) {
            err.println("railmap: " + e.getMessage());
            code = ExitCodes.INPUT;
        } else {
            err.println("railmap: internal error: " + Names.escape(e.toString(), 512) + " (please report this; set RAILMAP_DEBUG=1 for details)");
            if (System.getenv("RAILMAP_DEBUG") != null) {
                e.printStackTrace(err);
            }
            code = ExitCodes.INTERNAL;
        }
        err.flush();
        return code;
    }

    private static String commandPath(CommandLine cmd) {
        StringBuilder path = new StringBuilder();
        for (CommandLine c = cmd; c.getParent() != null; c = c.getParent()) {
            path.insert(0, c.getCommandName() + " ");
        }
        return path.toString();
    }
}
