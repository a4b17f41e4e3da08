package io.railmap.cli;

import io.railmap.cli.commands.AddressesCommand;
import io.railmap.cli.commands.AgreeCommand;
import io.railmap.cli.commands.CheckCommand;
import io.railmap.cli.commands.DiscoverCommand;
import io.railmap.cli.commands.DrawCommand;
import io.railmap.cli.commands.EnvCommand;
import io.railmap.cli.commands.JobsCommand;
import io.railmap.cli.commands.MatrixCommand;
import io.railmap.cli.commands.NodesCommand;
import io.railmap.cli.commands.PortsCommand;
import io.railmap.cli.commands.RailsCommand;
import io.railmap.cli.commands.SnapshotCommand;
import io.railmap.cli.commands.WatchCommand;
import io.railmap.options.JavaRuntime;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The root command. {@link #commandLine} is the one factory used by {@code main} and the tests. */
@Command(name = "railmap",
        mixinStandardHelpOptions = true,
        versionProvider = Railmap.Version.class,
        description = "Knows which physical cable joins which two ports, and writes rail-aligned configs for collective libraries: rail k on both ends of a pair is always the same cable.",
        subcommands = {MatrixCommand.class, CheckCommand.class, AddressesCommand.class, RailsCommand.class, DrawCommand.class, EnvCommand.class, AgreeCommand.class, WatchCommand.class, SnapshotCommand.class, DiscoverCommand.class, PortsCommand.class, NodesCommand.class, JobsCommand.class, io.railmap.cli.lab.LabCommand.class, CommandLine.HelpCommand.class})
public final class Railmap implements Runnable {
    @CommandLine.Spec
    CommandSpec spec;

    /**
     * @param out where commands write their output
     * @param err where messages and errors go
     * @return the configured command line
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        Failures failures = new Failures();
        CommandLine cmd = new CommandLine(new Railmap());
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setExecutionExceptionHandler(failures);
        cmd.setParameterExceptionHandler(failures);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setUsageHelpWidth(100);
        cmd.setUsageHelpAutoWidth(true);
        appendExitCodes(cmd);
        // lab exec NODE CMD...: every word after NODE is CMD's, its options too (a leading -- is dropped)
        cmd.getSubcommands().get("lab").getSubcommands().get("exec").setStopAtPositional(true);
        return cmd;
    }

    private static void appendExitCodes(CommandLine cmd) {
        var usage = cmd.getCommandSpec().usageMessage();
        List<String> footer = new ArrayList<>(List.of(usage.footer()));
        footer.add("");
        footer.addAll(List.of(ExitCodes.HELP));
        usage.footer(footer.toArray(String[]::new));
        cmd.getSubcommands().values().stream().filter(c -> !c.getCommandName().equals("help")).forEach(Railmap::appendExitCodes);
    }

    /**
     * @param args the command line
     * @return the exit code (see {@link ExitCodes})
     */
    public static int run(String... args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        return commandLine(out, err).execute(args);
    }

    @Override
    public void run() {
        throw nameOne(spec, "a command");
    }

    /**
     * @param root a command, {@code railmap}'s for the whole tree
     * @return it and every command under it (an alias's command once), parents before children, as
     *         help, the man pages and shell completion see them
     */
    public static List<CommandSpec> tree(CommandSpec root) {
        List<CommandSpec> all = new ArrayList<>(List.of(root));
        for (int i = 0; i < all.size(); i++) {
            new LinkedHashSet<>(all.get(i).subcommands().values()).forEach(sub -> all.add(sub.getCommandSpec()));
        }
        return all;
    }

    /**
     * @param group a command that only groups subcommands ({@code railmap}, {@code railmap lab})
     * @param what  what to name, {@code "a lab command"}
     * @return the usage error for the group run alone: {@code name a lab command: up, status, ... or down},
     *         its subcommands as its help lists them (not {@code help})
     */
    public static ParameterException nameOne(CommandSpec group, String what) {
        List<String> names = group.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
        String list = names.size() < 2 ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        return new ParameterException(group.commandLine(), "name " + what + ": " + list);
    }

    /** Prints the version from the jar manifest, then the Java that runs it ({@link JavaRuntime}). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Railmap.class.getPackage().getImplementationVersion();
            return new String[] {"railmap " + (v == null ? "(development build)" : v), JavaRuntime.describe()};
        }
    }
}
