package io.railmap.cli.lab;

import io.railmap.lab.LabNames;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap lab lldpd stop|start NAME}: silence or restart the LLDP of a node or switch. */
@Command(name = "lldpd", mixinStandardHelpOptions = true,
        description = "Stop or start the lldpd of a lab node or switch (a lab with switches only). Stopped, it removes its "
                + "control socket, the node's daemon reads no LLDP, and its neighbours forget it within 4 s (4 LLDP intervals).",
        footer = {"", "Examples:", "  sudo bin/railmap lab lldpd stop g2", "  sudo bin/railmap lab lldpd start g2"})
public final class LabLldpdCommand implements Callable<Integer> {
    /** What to do with the lldpd. */
    enum Action { stop, start }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "stop|start", description = "stop: end it (SIGTERM); start: run it again.")
    Action action;

    @Parameters(index = "1", paramLabel = "NAME", description = "The node or switch.")
    String name;

    @Override
    public Integer call() {
        boolean changed = LabSetup.lab().lldpd(LabNames.node("NAME", name), action == Action.start);
        spec.commandLine().getErr().println("railmap: lab: lldpd of " + name + (action == Action.start
                ? (changed ? " started" : " was running already") : (changed ? " stopped" : " was not running")));
        return 0;
    }
}
