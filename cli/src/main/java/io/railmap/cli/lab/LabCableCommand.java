package io.railmap.cli.lab;

import io.railmap.matrix.model.PortRef;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap lab cable down|up NODE:PORT}: pull or plug a cable. */
@Command(name = "cable", mixinStandardHelpOptions = true,
        description = "Pull (down) or plug (up) a lab cable at one end; the far end loses or regains carrier.",
        footer = {"", "Examples:", "  sudo bin/railmap lab cable down a:en6", "  sudo bin/railmap lab cable up a:en6"})
public final class LabCableCommand implements Callable<Integer> {
    /** What to do with the cable. */
    enum Action { down, up }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "down|up", description = "down: pull the cable; up: plug it back.")
    Action action;

    @Parameters(index = "1", paramLabel = "NODE:PORT", description = "One end of the cable, e.g. a:en6.")
    String end;

    @Override
    public Integer call() {
        PortRef port = PortRef.parse(end);
        LabSetup.lab().cable(port, action == Action.up);
        spec.commandLine().getErr().println("railmap: lab: cable at " + port + " " + (action == Action.up ? "plugged" : "pulled"));
        return 0;
    }
}
