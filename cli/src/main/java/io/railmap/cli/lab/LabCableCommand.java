package io.railmap.cli.lab;

import io.railmap.matrix.model.PortRef;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code railmap lab cable down|up NODE:PORT} and {@code railmap lab cable move NODE:PORT SWITCH:pN}. */
@Command(name = "cable", mixinStandardHelpOptions = true,
        description = {"Pull (down) or plug (up) a lab cable at one end (a node's port or a switch's pN); the far end loses or "
                + "regains carrier.",
            "move: re-cable a node's port from its switch port to another switch's free port (a NIC moved to another leaf); "
                + "the node keeps its interface name and address, and its lldpd and daemon see the port go and come back."},
        footer = {"", "Examples:", "  sudo bin/railmap lab cable down a:en6", "  sudo bin/railmap lab cable up a:en6",
            "  sudo bin/railmap lab cable move g3:eth2 leaf1:p5   # then g3:eth3 to leaf0:p3, g3:eth2 to leaf1:p3: swapped"})
public final class LabCableCommand implements Callable<Integer> {
    /** What to do with the cable. */
    enum Action { down, up, move }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "down|up|move", description = "down: pull the cable; up: plug it back; move: re-cable it.")
    Action action;

    @Parameters(index = "1", paramLabel = "NODE:PORT", description = "One end of the cable, e.g. a:en6 (for move: the node's end).")
    String end;

    @Parameters(index = "2", arity = "0..1", paramLabel = "SWITCH:pN", description = "move only: the free switch port the cable goes to.")
    String to;

    @Override
    public Integer call() {
        PortRef port = PortRef.parse(end);
        if (action == Action.move) {
            if (to == null) {
                throw new ParameterException(spec.commandLine(), "lab cable move needs the switch port to move to, e.g. "
                        + "railmap lab cable move " + port + " leaf1:p5");
            }
            PortRef target = PortRef.parse(to);
            LabSetup.lab().move(port, target);
            spec.commandLine().getErr().println("railmap: lab: cable at " + port + " moved to " + target);
            return 0;
        }
        if (to != null) {
            throw new ParameterException(spec.commandLine(), "lab cable " + action + " takes one end (NODE:PORT), not also " + to);
        }
        LabSetup.lab().cable(port, action == Action.up);
        spec.commandLine().getErr().println("railmap: lab: cable at " + port + " " + (action == Action.up ? "plugged" : "pulled"));
        return 0;
    }
}
