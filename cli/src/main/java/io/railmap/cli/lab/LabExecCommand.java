package io.railmap.cli.lab;

import io.railmap.lab.LabException;
import io.railmap.lab.LabNames;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code railmap lab exec NODE -- CMD [ARGS...]}: runs a command in a lab node's namespace and exits
 * with its status.
 */
@Command(name = "exec", mixinStandardHelpOptions = true,
        description = "Run CMD in lab node NODE's network namespace (ip netns exec), with this command's environment, working "
                + "directory and standard input, output and error, and exit with CMD's exit status (128+N when signal N ended it). "
                + "What it starts lives in the node's namespace: railmap lab down ends it. Every word after NODE is CMD's (its "
                + "options too); a -- before CMD is dropped.",
        footer = {"", "Exit status: CMD's own. When railmap itself fails it prints a line starting with \"railmap:\" on standard error "
                + "and exits 1 (a bad command line), 5 (no lab is up, or NODE is not in it), 126 (CMD is not executable) or 127 (CMD "
                + "is not found), as env(1) does; CMD has not run then.",
            "", "Examples:", "  sudo bin/railmap lab exec a -- ip -4 addr show mgmt0", "  sudo bin/railmap lab exec b -- ping -c 1 169.254.1.1"})
public final class LabExecCommand implements Callable<Integer> {
    /** The exit status of a command that is found but cannot be run (POSIX shells, env(1)). */
    static final int NOT_EXECUTABLE = 126;
    /** The exit status of a command that is not found (POSIX shells, env(1)). */
    static final int NOT_FOUND = 127;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NODE", description = "The lab node.")
    String node;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CMD", description = "The command and its arguments.")
    List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        // every word after NODE is the command's (the factory sets stopAtPositional), so a -- before it arrives here
        List<String> argv = command.get(0).equals("--") ? command.subList(1, command.size()) : command;
        if (argv.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required parameter: 'CMD' (the command to run after --)");
        }
        List<String> full = LabSetup.lab().execCommand(LabNames.node("NODE", node), argv);
        String program = argv.get(0);
        // without PATH, execvp(3) searches confstr(_CS_PATH), /bin:/usr/bin on glibc
        Optional<Integer> refused = unrunnable(program, System.getenv().getOrDefault("PATH", "/bin:/usr/bin"));
        if (refused.isPresent()) {
            spec.commandLine().getErr().println("railmap: lab exec: " + Names.escape(program, 256) + (refused.get() == NOT_FOUND
                    ? ": command not found (looked in PATH)" : ": not an executable file"));
            spec.commandLine().getErr().flush();
            return refused.get();
        }
        spec.commandLine().getOut().flush();
        spec.commandLine().getErr().flush();
        Process process;
        try {
            process = new ProcessBuilder(full).inheritIO().start();
        } catch (IOException e) {
            throw new LabException("cannot run " + full.get(0) + ": " + e.getMessage());
        }
        // ended by a signal, railmap ends its command too, as a shell's job would end
        Thread endCommand = new Thread(process::destroy);
        Runtime.getRuntime().addShutdownHook(endCommand);
        int status = process.waitFor();
        Runtime.getRuntime().removeShutdownHook(endCommand);
        return status;
    }

    /**
     * Finds a program as execvp(3) does: a name with a '/' is a path, any other is looked up in PATH.
     *
     * @return {@value #NOT_FOUND} when no such file exists, {@value #NOT_EXECUTABLE} when one exists but is not an
     *         executable regular file; empty when it can be run
     */
    static Optional<Integer> unrunnable(String program, String path) {
        List<Path> candidates = program.contains("/") ? List.of(Path.of(program))
                : Stream.of(path.split(":", -1)).map(d -> Path.of(d.isEmpty() ? "." : d, program)).toList();
        boolean found = false;
        for (Path p : candidates) {
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.empty();
            }
            found |= Files.exists(p);
        }
        return Optional.of(found ? NOT_EXECUTABLE : NOT_FOUND);
    }
}
