package io.railmap.matrix.library;

import static io.railmap.matrix.library.ListedPorts.error;
import static io.railmap.matrix.library.ListedPorts.quoted;
import static io.railmap.matrix.library.ListedPorts.warning;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * NCCL's variables railmap writes ({@link NcclLibrary}), read as NVIDIA/nccl 2.30 reads them. Numbers
 * go through {@code ncclLoadParam} ({@code src/misc/param.cc}): an empty value is the default,
 * otherwise {@code strtoll(str, nullptr, 0)}, which reads a leading number and 0 when there is none,
 * and the default on overflow.
 */
final class NcclEnvCheck {
    /** {@code MAX_IFS}, NVIDIA/nccl {@code src/include/socket.h}: the most NCCL_SOCKET_IFNAME entries read. */
    static final int MAX_IFS = 16;
    static final List<String> VARIABLES = List.of("NCCL_IB_HCA", "NCCL_CROSS_NIC", "NCCL_IB_GID_INDEX", "NCCL_SOCKET_IFNAME",
            "NCCL_IB_SUBNET_AWARE_ROUTING");
    /** The rules the libraries that read these variables name. */
    static final EnvRules RULES = new EnvRules(VARIABLES, NcclEnvCheck::check);

    private NcclEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Optional.ofNullable(vars.get("NCCL_IB_HCA")).ifPresent(v -> hca(node, v, out));
        param(vars, "NCCL_CROSS_NIC", 2, out).ifPresent(v -> crossNic(node, v, out));
        param(vars, "NCCL_IB_GID_INDEX", -1, out).filter(v -> v >= 0).ifPresent(v -> ListedPorts.gidIndex(node, "NCCL_IB_GID_INDEX", v,
                "NCCL (ncclIbGetGidIndex, src/transport/net_ib/connect.cc)", out));
        Optional.ofNullable(vars.get("NCCL_SOCKET_IFNAME")).ifPresent(v -> socketIfname(node, v, out));
        if (vars.keySet().stream().anyMatch(k -> k.startsWith("NCCL_"))) {
            subnetAwareRouting(node, param(vars, "NCCL_IB_SUBNET_AWARE_ROUTING", 0, out), out);
        }
    }

    /**
     * @return the value NCCL takes for a numeric variable ({@code ncclLoadParam}), empty when the file
     *         does not set it; a {@link Code#BAD_SETTING} error when NCCL reads no number in it (0) or
     *         overflows (its default)
     */
    private static Optional<Long> param(Map<String, String> vars, String variable, long deflt, List<Finding> out) {
        String value = vars.get(variable);
        if (value == null) {
            return Optional.empty();
        }
        if (value.isEmpty()) {
            return Optional.of(deflt);
        }
        CNumber n = CNumber.read(value, 0);
        if (n.none() || n.overflowsLong()) {
            long read = n.none() ? 0 : deflt;
            out.add(error(Code.BAD_SETTING, variable + " " + quoted(value) + " is not a number: NCCL reads it (strtoll in ncclLoadParam,"
                    + " src/misc/param.cc) as " + read + (n.none() ? "" : ", its default") + "; write a whole number"));
            return Optional.of(read);
        }
        return Optional.of(n.asLong());
    }

    /**
     * {@code NCCL_IB_HCA}: {@code ^} excludes (not checked), {@code =} asks for exact names, else a name
     * is a prefix; entries split at {@code ,}, fields at {@code :} (name cut to 63 characters, port,
     * rail; empty is any); an entry with an empty name is dropped ({@code parseStringList}); at most 32
     * entries read ({@code MAX_IB_DEVS}). A device takes the rail of the first entry it matches
     * ({@code matchIfList}, {@code src/misc/utils.cc}; {@code ncclIbInitDevices} copies that entry's
     * rail into its {@code railId}); the rail ids are then judged by {@link #railIds}.
     */
    private static void hca(NodeNics node, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        boolean exact = value.startsWith("=");
        // parseStringList keeps an entry only when its name is not empty (ifC > 0): ":1" is dropped
        List<String> entries = ListedPorts.entries(exact ? value.substring(1) : value).stream().filter(e -> !e.startsWith(":")).toList();
        ListedPorts.limit(node, "NCCL_IB_HCA", entries, NcclLibrary.MAX_IB_DEVS, "MAX_IB_DEVS", out);
        Map<ComputeNic, Optional<Integer>> given = new LinkedHashMap<>();
        for (String entry : entries.subList(0, Math.min(entries.size(), NcclLibrary.MAX_IB_DEVS))) {
            String[] f = entry.split(":", -1);
            String name = f[0].length() > NcclLibrary.MAX_PREFIX_CHARS ? f[0].substring(0, NcclLibrary.MAX_PREFIX_CHARS) : f[0];
            if (!ListedPorts.numbers("NCCL_IB_HCA", entry, f, 2, out)) {
                continue;
            }
            Optional<Integer> port = ListedPorts.field(f, 1);
            Optional<Integer> rail = ListedPorts.field(f, 2);
            List<Port> ports = ListedPorts.ports(node).stream()
                    .filter(p -> p.rdma().isPresent() && (exact ? p.rdma().get().equals(name) : p.rdma().get().startsWith(name)))
                    .filter(p -> port.map(n -> n == p.rdmaPort()).orElse(true)).toList();
            ListedPorts.listed(node, "NCCL_IB_HCA", entry, ports, out).forEach(nic -> given.putIfAbsent(nic, rail));
        }
        railIds(node, given, out);
    }

    /**
     * The rail ids of {@code NCCL_IB_HCA}, against railmap's rails. NCCL compares rail ids only between
     * the NICs of one node: with {@code NCCL_CROSS_NIC=0}, {@code ncclTopoSearchCheckNet}
     * ({@code src/graph/search.cc}) lets a channel leave only by a NIC whose {@code railId} equals that
     * of the NIC it entered by, and {@code NCCL_NET_MERGE_POLICY=RAIL} merges only NICs of one
     * {@code railId} ({@code ncclTopoAutoMerge}, {@code src/graph/topo.cc}); no rail id crosses to
     * another node. So ids numbered otherwise than railmap's are harmless as long as each covers one
     * rail: an error ({@link Code#WRONG_RAIL_ID}) only when one id covers NICs that railmap puts on
     * different rails (switches, or direct cables to one peer), since a channel may then enter by one
     * and leave by the other; an info when the numbering differs from railmap's but is consistent. NICs
     * without an id in the file, or without a rail in railmap's records, are not judged.
     */
    private static void railIds(NodeNics node, Map<ComputeNic, Optional<Integer>> given, List<Finding> out) {
        Map<Integer, List<ComputeNic>> byId = new TreeMap<>();
        given.forEach((nic, id) -> id.filter(i -> nic.rail().isPresent()).ifPresent(i -> byId.computeIfAbsent(i, k -> new ArrayList<>()).add(nic)));
        boolean mixed = false;
        for (Map.Entry<Integer, List<ComputeNic>> e : byId.entrySet()) {
            List<ComputeNic> nics = e.getValue();
            if (nics.stream().map(ComputeNic::rail).distinct().count() < 2) {
                continue;
            }
            mixed = true;
            out.add(new Finding(Code.WRONG_RAIL_ID, Severity.ERROR, List.of(), Optional.empty(), nics.stream().map(n -> n.port().ref()).toList(),
                    "NCCL_IB_HCA gives rail " + e.getKey() + " to " + nics.stream().map(n -> n.hcaPort() + " (" + n.port().ref() + ", on "
                            + reach(node, n) + ")").collect(Collectors.joining(", ")) + ": with NCCL_CROSS_NIC=0 NCCL lets a channel enter "
                            + node.node() + " by one of them and leave by another (ncclTopoSearchCheckNet compares only the rail ids of one"
                            + " node's NICs), so the channel joins two rails; give NICs on different rails different ids: write "
                            + nics.stream().map(n -> n.hcaPort() + ":" + n.rail().orElseThrow()).collect(Collectors.joining(","))
                            + " (railmap env --for nccl)"));
        }
        if (mixed) {
            return;
        }
        List<ComputeNic> renumbered = byId.values().stream().flatMap(List::stream).filter(n -> !given.get(n).equals(n.rail())).toList();
        Map<Optional<Integer>, Set<Integer>> idsOfRail = new LinkedHashMap<>();
        byId.forEach((id, nics) -> nics.forEach(n -> idsOfRail.computeIfAbsent(n.rail(), r -> new TreeSet<>()).add(id)));
        List<Optional<Integer>> split = idsOfRail.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();
        if (renumbered.isEmpty() && split.isEmpty()) {
            return;
        }
        List<ComputeNic> named = byId.values().stream().flatMap(List::stream).filter(n -> renumbered.contains(n) || split.contains(n.rail())).toList();
        out.add(new Finding(Code.RENUMBERED_RAIL_ID, Severity.INFO, List.of(), Optional.empty(), named.stream().map(n -> n.port().ref()).toList(),
                "NCCL_IB_HCA numbers " + node.node() + "'s rails otherwise than railmap (" + named.stream().map(n -> n.hcaPort() + " "
                        + given.get(n).orElseThrow() + " for " + reach(node, n)).collect(Collectors.joining(", ")) + "), but no id covers"
                        + " two rails: NCCL compares rail ids only between one node's NICs (ncclTopoSearchCheckNet), so this works"
                        + (split.isEmpty() ? "" : "; a rail under two ids only keeps a channel from entering by one of its NICs and"
                        + " leaving by the other")));
    }

    /** @return what the NIC reaches, for a message: {@code rail 0 (leaf0)}, {@code cable a:en1–b:en2}, else {@code rail k} */
    private static String reach(NodeNics node, ComputeNic nic) {
        return node.reach(nic.port().ref()).orElse("rail " + nic.rail().orElseThrow());
    }

    /** {@code NCCL_CROSS_NIC} ({@code src/graph/search.cc}): 0 keeps each ring and tree on one rail id. */
    private static void crossNic(NodeNics node, long value, List<Finding> out) {
        List<ComputeNic> loose = node.nics().stream().filter(n -> n.rail().isEmpty()).toList();
        if (value == 0 && !loose.isEmpty()) {
            out.add(warning(Code.UNKNOWN_FAR_END, List.of(loose.get(0).port().ref()), "NCCL_CROSS_NIC=0 keeps each ring and tree on one rail, but " + ComputeNic.hcaPorts(loose)
                    + " (" + loose.get(0).port().ref() + (loose.size() > 1 ? ", ..." : "") + ") has no rail: no switch or direct cable is"
                    + " known at its far end, so nothing says NCCL pairs it with a NIC of its own rail; railmap env leaves"
                    + " NCCL_CROSS_NIC unset (NCCL's 2) until its far end is known (check its cable, lldpd or the link probe)"));
        }
    }

    /**
     * {@code NCCL_SOCKET_IFNAME} ({@code src/os/linux.cc}, {@code ncclOsFindInterfaces}): {@code ^}
     * excludes (not checked: the record need not hold every netdev), {@code =} asks for exact names,
     * else a name is a prefix ({@code matchIfList}, any port); at most {@value #MAX_IFS} entries; only
     * running interfaces with an IPv4 or IPv6 address are taken.
     */
    private static void socketIfname(NodeNics node, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        boolean exact = value.startsWith("=");
        List<String> names = ListedPorts.entries(exact ? value.substring(1) : value).stream().map(e -> e.split(":", -1)[0])
                .filter(n -> !n.isEmpty()).limit(MAX_IFS).map(n -> n.length() > NcclLibrary.MAX_PREFIX_CHARS
                        ? n.substring(0, NcclLibrary.MAX_PREFIX_CHARS) : n).toList();
        List<Port> matched = ListedPorts.ports(node).stream()
                .filter(p -> names.stream().anyMatch(n -> exact ? p.netdev().equals(n) : p.netdev().startsWith(n))).toList();
        String named = "NCCL_SOCKET_IFNAME " + quoted(value);
        if (matched.isEmpty()) {
            out.add(error(Code.UNKNOWN_DEVICE, named + " matches no netdev of " + node.node() + " (" + (exact ? "exact names" : "names"
                    + " starting so") + "): NCCL finds no socket interface and its bootstrap fails; " + node.management()
                    .map(m -> "write =" + m.netdev() + " (railmap env --for nccl)").orElse("name the management netdev")));
            return;
        }
        List<Port> usable = matched.stream().filter(p -> p.active() && (!p.addressesKnown() || !p.addresses().isEmpty())).toList();
        if (usable.isEmpty()) {
            out.add(error(Code.LINK_DOWN, named + " matches only " + String.join(", ", matched.stream().map(p -> Names.escape(p.netdev())
                    + " (" + (p.active() ? "no IP address" : ListedPorts.state(p)) + ")").toList()) + " on " + node.node()
                    + ": NCCL takes only running interfaces with an address (ncclOsFindInterfaces), finds none and its bootstrap fails; "
                    + node.management().map(m -> "write =" + m.netdev() + " (railmap env --for nccl)").orElse("name the management netdev")));
        }
    }

    /** {@code NCCL_IB_SUBNET_AWARE_ROUTING} ({@code src/transport/net_ib/connect.cc}, default 0): railmap's reason to set it. */
    private static void subnetAwareRouting(NodeNics node, Optional<Long> value, List<Finding> out) {
        Optional<String> why = NcclLibrary.subnetAwareRouting(node);
        if (why.isPresent() && value.orElse(0L) == 0) {
            out.add(warning(Code.SUBNET_ROUTING_OFF, "NCCL_IB_SUBNET_AWARE_ROUTING is " + (value.isEmpty() ? "not set" : "0") + ", but "
                    + why.get() + ": without it NCCL pairs NICs by their position on the node (ncclIbConnect), so a connection can"
                    + " leave on a NIC whose cable or rail does not reach the peer; set NCCL_IB_SUBNET_AWARE_ROUTING=1 (railmap env"
                    + " --for nccl) so NCCL takes the local NIC on the peer's subnet (ncclIbFindDevBySubnet)"));
        }
    }
}
