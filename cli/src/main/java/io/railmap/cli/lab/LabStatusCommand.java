package io.railmap.cli.lab;

import io.railmap.cli.client.DaemonClient;
import io.railmap.lab.Lab;
import io.railmap.lab.LabException;
import io.railmap.lab.LabState;
import io.railmap.lab.Netns;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.model.Snapshot;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code railmap lab status}: each node's daemon, what it holds, and its cable ports' carrier; each switch's lldpd and ports. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show whether the lab runs ssh (and why not), then each lab node: its daemon (pid, running), how many records "
                + "it holds, its lldpd (a lab with switches), its sshd, and whether each of its cable ports has carrier, with the bytes "
                + "it received and sent since the lab was made (what its cable carried); then each switch: its lldpd and its ports.",
        footer = {"", "Example:", "  sudo bin/railmap lab status"})
public final class LabStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Lab lab = LabSetup.lab();
        LabState state = lab.state().orElseThrow(() -> new LabException("no lab is up"
                + (lab.leftovers().isEmpty() ? "" : " (leftover namespaces " + lab.leftovers() + ": railmap lab down removes them)")));
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Map<String, Boolean>> carriers = lab.carriers(state);
        out.println("lab " + state.prefix() + ": " + state.topology().nodes().size() + " nodes, "
                + LabSetup.switches(state.topology()).map(n -> n + ", ").orElse("")
                + state.topology().cables().size() + " cables; " + LabSetup.ssh(state) + "; state in " + lab.dir());
        for (String node : state.topology().nodes()) {
            String daemon;
            if (!lab.running(state, node)) {
                daemon = "daemon not running";
            } else {
                String held;
                try (DaemonClient client = new DaemonClient(LabSetup.daemonUrl(node))) {
                    Snapshot s = SnapshotCodec.readSnapshot(node, client.get("/v1/snapshot"));
                    held = "holds " + s.records().size() + " record" + (s.records().size() == 1 ? "" : "s");
                } catch (RuntimeException e) {
                    held = "API not answering";
                }
                daemon = "daemon pid " + state.pids().get(node) + ", " + held;
            }
            out.println("  " + node + ": " + daemon + lldpd(lab, state, node) + sshd(lab, state, node) + "; ports: "
                    + ports(carriers.get(node), Netns.linkBytes(lab.names().nodeNamespace(node))));
        }
        for (String sw : state.topology().switches()) {
            out.println("  " + sw + ": switch" + lldpd(lab, state, sw) + "; ports: "
                    + ports(carriers.get(sw), Netns.linkBytes(lab.names().switchNamespace(sw))));
        }
        out.flush();
        return 0;
    }

    /**
     * @return "p1 up (12.3 MB in, 12.1 MB out), p2 down (0 B in, 0 B out)", the bytes since the port was made (the kernel's
     *         counters: what a cable carried), or "none"
     */
    private static String ports(Map<String, Boolean> carriers, Map<String, Netns.LinkBytes> bytes) {
        return carriers.isEmpty() ? "none" : carriers.entrySet().stream()
                .map(e -> e.getKey() + (e.getValue() ? " up" : " down") + Optional.ofNullable(bytes.get(e.getKey()))
                        .map(b -> " (" + size(b.rx()) + " in, " + size(b.tx()) + " out)").orElse(""))
                .collect(Collectors.joining(", "));
    }

    /** @return bytes in B, kB, MB or GB (powers of 1000), three significant digits */
    static String size(long bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = 0;
        while (value >= 999.5 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(java.util.Locale.ROOT, value < 9.995 ? "%.2f %s" : value < 99.95 ? "%.1f %s" : "%.0f %s",
                value, units[unit]);
    }

    /** @return ", sshd pid N", ", sshd not running", or nothing when the lab runs no sshd */
    private static String sshd(Lab lab, LabState state, String node) {
        if (!state.ssh().isOn()) {
            return "";
        }
        return lab.sshdRunning(state, node) ? ", sshd pid " + state.ssh().pids().get(node) : ", sshd not running";
    }

    /** @return ", lldpd pid N (socket S)", ", lldpd stopped", or nothing in a lab without lldpd */
    private static String lldpd(Lab lab, LabState state, String name) {
        LabState.Lldpd entry = state.lldpd().get(name);
        if (entry == null) {
            return "";
        }
        return lab.lldpdRunning(state, name) ? ", lldpd pid " + entry.pid().orElseThrow() + " (socket " + entry.socket() + ")"
                : ", lldpd stopped";
    }
}
