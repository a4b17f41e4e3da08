package io.railmap.cli.lab;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap lab down}: remove everything the lab made. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Remove the lab: end its daemons, delete its namespaces (and with them its links) and its state "
                + "directory. Touches only namespaces with the lab's prefix; safe to run twice or after a crash.",
        footer = {"", "Example:", "  sudo bin/railmap lab down"})
public final class LabDownCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<String> removed = LabSetup.lab().down();
        spec.commandLine().getErr().println("railmap: lab: " + (removed.isEmpty() ? "nothing to remove"
                : "removed " + String.join(", ", removed)));
        return 0;
    }
}
