package io.railmap.cli.lab;

import io.railmap.lab.Lab;
import io.railmap.lab.LabException;
import io.railmap.lab.LabSsh;
import io.railmap.lab.LabState;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap lab env}: shell lines that make {@code ssh} reach the lab's nodes. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Print shell lines to eval: RAILMAP_LAB_DIR and RAILMAP_LAB_PREFIX of the lab, and PATH with the lab's ssh first "
                + "(a shim that runs ssh in the lab's management namespace with the lab's own keys and configuration; it never reads "
                + "~/.ssh), so that ssh NODE, and launchers that run ssh (mlx.launch), reach the lab's nodes. Needs a lab with ssh on "
                + "(railmap lab up --ssh auto|on); the shim enters a namespace, so run them as root.",
        footer = {"", "Example:", "  sudo bash -c 'env=$(bin/railmap lab env) && eval \"$env\" && ssh a ip -4 -o addr show mgmt0'"})
public final class LabEnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Lab lab = LabSetup.lab();
        LabState state = lab.state().orElseThrow(() -> new LabException("no lab is up: start one with railmap lab up --topology FILE"));
        if (!state.ssh().isOn()) {
            throw new LabException("the lab runs no sshd: " + state.ssh().off().orElseThrow()
                    + "; then make the lab again with railmap lab up --replace --ssh on --topology FILE");
        }
        LabSsh ssh = lab.ssh();
        PrintWriter out = spec.commandLine().getOut();
        out.println("# lab " + state.prefix() + ": ssh NODE reaches a node (" + String.join(", ", state.topology().nodes())
                + ", by name or management address); railmap lab down ends the lab");
        out.println("export RAILMAP_LAB_DIR=" + LabSsh.quote(lab.dir().toAbsolutePath().normalize().toString()));
        out.println("export RAILMAP_LAB_PREFIX=" + LabSsh.quote(state.prefix()));
        out.println("export PATH=" + LabSsh.quote(ssh.bin().toString()) + "\":$PATH\"");
        out.flush();
        return 0;
    }
}
