package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** What every library's check shares: the ports a list entry names, list limits, fields, GID indices, findings. */
final class ListedPorts {
    private ListedPorts() {
    }

    /** @return the node's ports, from its record */
    static List<Port> ports(NodeNics node) {
        return node.topology().record(node.node()).orElseThrow().ports();
    }

    /**
     * @return the compute NICs among the ports an entry names; an error for no port, a down port, the
     *         management NIC or a NIC below the compute rate
     */
    static List<ComputeNic> listed(NodeNics node, String variable, String entry, List<Port> ports, List<Finding> out) {
        String named = variable + " names " + Names.escape(entry, 80);
        if (ports.isEmpty()) {
            out.add(error(Code.UNKNOWN_HCA, named + ", which " + node.node() + " does not have (its compute NICs: "
                    + (node.nics().isEmpty() ? "none" : ComputeNic.hcaPorts(node.nics())) + "); fix the name or leave it out"));
            return List.of();
        }
        List<ComputeNic> nics = new ArrayList<>();
        for (Port p : ports) {
            String which = named + " (" + p.rdma().orElse(p.netdev()) + ":" + p.rdmaPort() + ", " + p.ref() + ")";
            judged(node, p, which, Optional.empty(), out).ifPresent(nics::add);
        }
        return nics;
    }

    /**
     * @param which  the port as the message names it ({@code UCX_NET_DEVICES names mlx5_0:1 (...)})
     * @param remedy what to do, replacing each case's own (leave the port out of the list)
     * @return the compute NIC the port is; else empty after an error: a port that is not active
     *         ({@link Code#LINK_DOWN}), the management NIC or a NIC below the compute rate
     *         ({@link Code#SIDE_NIC_IN_LIST})
     */
    static Optional<ComputeNic> judged(NodeNics node, Port p, String which, Optional<String> remedy, List<Finding> out) {
        if (!p.active()) {
            out.add(error(Code.LINK_DOWN, List.of(p.ref()), which + ", whose port is " + state(p) + ": "
                    + remedy.orElse("bring its link up or leave it out")));
            return Optional.empty();
        }
        if (node.management().map(m -> m.ref().equals(p.ref())).orElse(false)) {
            out.add(error(Code.SIDE_NIC_IN_LIST, List.of(p.ref()), which + ", the management NIC: " + remedy.orElse("keep it out of the stripe list")));
            return Optional.empty();
        }
        Optional<ComputeNic> nic = node.nics().stream().filter(n -> n.port().ref().equals(p.ref())).findFirst();
        if (nic.isEmpty()) {
            out.add(error(Code.SIDE_NIC_IN_LIST, List.of(p.ref()), which + ", a side NIC (" + p.rateGbps().map(r -> r + " Gb/s").orElse("rate unknown")
                    + ") slower than the compute NICs: striping over it slows every transfer to its rate; " + remedy.orElse("leave it out")));
        }
        return nic;
    }

    /** An error when a list has more entries than the library reads. */
    static void limit(NodeNics node, String variable, List<String> entries, int max, String constant, List<Finding> out) {
        if (entries.size() > max) {
            out.add(error(Code.LIST_LIMIT, variable + " on " + node.node() + " has " + entries.size()
                    + " entries; the library reads the first " + max + " (" + constant + ") and ignores " + entries.subList(max,
                    Math.min(entries.size(), max + 8)).stream().map(e -> Names.escape(e, 80)).collect(Collectors.joining(","))
                    + (entries.size() > max + 8 ? ",..." : "")));
        }
    }

    /** @return the value's non-empty entries split at ',' */
    static List<String> entries(String value) {
        return List.of(value.split(",")).stream().filter(e -> !e.isEmpty()).toList();
    }

    /** @return true when fields 1 to {@code last} are absent, empty or numbers; else false after an error naming the entry */
    static boolean numbers(String variable, String entry, String[] fields, int last, List<Finding> out) {
        for (int k = 1; k <= last && k < fields.length; k++) {
            if (!fields[k].matches("[0-9]{0,5}")) {
                out.add(error(Code.BAD_SETTING, variable + " entry " + Names.escape(entry, 80) + ": \"" + Names.escape(fields[k], 40)
                        + "\" is not a number; write hca:port" + (variable.startsWith("NCCL") ? ":rail" : "") + ", such as mlx5_0:1"
                        + (variable.startsWith("NCCL") ? ":0" : "")));
                return false;
            }
        }
        return true;
    }

    /** @return field k as a number, empty when absent or empty (any) */
    static Optional<Integer> field(String[] fields, int k) {
        return fields.length <= k || fields[k].isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(fields[k]));
    }

    /**
     * A GID index forced for every RDMA port ({@code NCCL_IB_GID_INDEX}, {@code UCX_IB_GID_INDEX}): an
     * error naming the RoCE compute NICs whose RoCE v2 IPv4-mapped GID ({@link ComputeNic#gidIndex()},
     * from the records) is at another index. NICs on InfiniBand or of unknown index are not judged.
     */
    static void gidIndex(NodeNics node, String variable, long index, String how, List<Finding> out) {
        List<ComputeNic> other = node.nics().stream().filter(n -> n.port().kind() == PortKind.ROCE && n.gidIndex().isPresent()
                && n.gidIndex().get() != index).toList();
        if (other.isEmpty()) {
            return;
        }
        Optional<Integer> shared = io.railmap.matrix.library.ComputeNics.sharedGidIndex(node.nics());
        out.add(error(Code.WRONG_GID_INDEX, variable + "=" + index + ", but the RoCE v2 IPv4 GID of " + other.stream()
                .map(n -> n.hcaPort() + " is at index " + n.gidIndex().get()).collect(Collectors.joining(", ")) + ": " + how
                + " takes GID " + index + " on every RoCE port, a RoCE v1, IPv6 or absent GID there, and its queue pairs do not"
                + " connect; " + shared.map(i -> "write " + i + " (railmap env)").orElse("leave it unset: the NICs' indices differ")));
    }

    /** @return the port's state in lower case ({@code down}) */
    static String state(Port p) {
        return p.state().name().toLowerCase(Locale.ROOT);
    }

    /** @return the value quoted and escaped for a message */
    static String quoted(String value) {
        return "\"" + Names.escape(value, 64) + "\"";
    }

    static Finding error(Code code, String message) {
        return error(code, List.of(), message);
    }

    /** @return an error about {@code ports}, which {@code message} names in that order */
    static Finding error(Code code, List<PortRef> ports, String message) {
        return new Finding(code, Severity.ERROR, List.of(), Optional.empty(), ports, message);
    }

    static Finding warning(Code code, String message) {
        return warning(code, List.of(), message);
    }

    /** @return a warning about {@code ports}, which {@code message} names in that order */
    static Finding warning(Code code, List<PortRef> ports, String message) {
        return new Finding(code, Severity.WARNING, List.of(), Optional.empty(), ports, message);
    }
}
