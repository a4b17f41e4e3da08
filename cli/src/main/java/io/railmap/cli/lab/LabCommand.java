package io.railmap.cli.lab;

import io.railmap.cli.Railmap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap lab}: the group of lab commands. */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "A virtual cluster of real daemons on this Linux machine (needs root and iproute2): each node a "
                + "network namespace, each cable a veth pair, a management bridge, one railmapd per node; each switch a "
                + "namespace with a bridge and lldpd (needs the lldpd package). State, "
                + "sockets and logs in $RAILMAP_LAB_DIR (default /run/railmap-lab); namespaces named $RAILMAP_LAB_PREFIX-... "
                + "(default rmlab). Talk to node N's daemon with --lab N (railmap matrix --lab a --hosts a,b). Run a command in "
                + "node N's namespace with lab exec N -- CMD. When sshd is installed (package openssh-server) every node runs one on "
                + "its management address, and the ssh that railmap lab env puts on PATH reaches the nodes by name, as mlx.launch "
                + "needs (lab up --ssh auto|on|off).",
        subcommands = {LabUpCommand.class, LabStatusCommand.class, LabExecCommand.class, LabEnvCommand.class, LabCableCommand.class,
            LabKillCommand.class, LabStartCommand.class, LabLldpdCommand.class, LabDownCommand.class},
        footer = {"", "Examples:",
            "  sudo bin/railmap lab up --topology examples/two-crossed.json",
            "  sudo bin/railmap lab exec a -- ip -4 addr show mgmt0",
            "  sudo bash -c 'env=$(bin/railmap lab env) && eval \"$env\" && ssh b ip -4 -o addr show mgmt0'",
            "  sudo bin/railmap lab cable down a:en6",
            "  sudo bin/railmap lab up --topology examples/two-leaves.json",
            "  sudo bin/railmap lab cable move g3:eth2 leaf1:p5",
            "  sudo bin/railmap matrix --lab b --hosts a,b --format json",
            "  sudo bin/railmap lab down"})
public final class LabCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw Railmap.nameOne(spec, "a lab command");
    }
}
