package io.railmap.cli.lab;

import io.railmap.lab.LabNames;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap lab start NODE}: start a node's daemon again. */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Start a lab node's daemon again (after lab kill).",
        footer = {"", "Example:", "  sudo bin/railmap lab start a"})
public final class LabStartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NODE", description = "The node.")
    String node;

    @Override
    public Integer call() {
        long pid = LabSetup.lab().start(LabNames.node("NODE", node));
        spec.commandLine().getErr().println("railmap: lab: daemon of " + node + " started (pid " + pid + ")");
        return 0;
    }
}
