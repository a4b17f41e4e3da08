package io.railmap.cli.lab;

import io.railmap.lab.LabNames;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap lab kill NODE}: crash a node's daemon. */
@Command(name = "kill", mixinStandardHelpOptions = true,
        description = "Kill a lab node's daemon with SIGKILL, as a crash: no goodbye on its ports, no leave from the cluster; "
                + "the others notice through failure detection.",
        footer = {"", "Example:", "  sudo bin/railmap lab kill a"})
public final class LabKillCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NODE", description = "The node.")
    String node;

    @Override
    public Integer call() {
        boolean killed = LabSetup.lab().kill(LabNames.node("NODE", node));
        spec.commandLine().getErr().println("railmap: lab: daemon of " + node + (killed ? " killed" : " was not running"));
        return 0;
    }
}
