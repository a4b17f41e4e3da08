package io.railmap.matrix.library;

import io.railmap.matrix.address.Ipv4Subnet;
import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * NCCL's settings ({@code nccl}), as NVIDIA/nccl 2.30.7 reads them.
 *
 * <p>Variables: value, when it is written, where NCCL reads it.
 * <ul>
 * <li>{@code NCCL_IB_HCA==mlx5_0:1:0,mlx5_1:1:1}: the compute NICs as {@code hca:port:rail}, the rail
 *     {@link ComputeNic#rail()} (switched rails first, then direct cables), which NCCL makes the
 *     device's {@code railId}; {@code hca:port} for a NIC without a rail. Read by
 *     {@code ncclIbInitDevices} ({@code src/transport/net_ib/init.cc}: {@code ^} excludes, {@code =}
 *     asks for exact names), parsed by {@code parseStringList} ({@code src/misc/utils.cc}: entries at
 *     {@code ,}, fields prefix:port:rail:plane at {@code :}, absent or empty is -1) and matched by
 *     {@code matchIfList}/{@code matchIf} (exact is the whole name; a port matches its number or -1).
 *     Limits: {@value #MAX_IB_DEVS} entries ({@code MAX_IB_DEVS}), prefixes of
 *     {@value #MAX_PREFIX_CHARS} characters ({@code struct netIf}, {@code src/include/utils.h}), a
 *     rail in an {@code int16_t}.</li>
 * <li>{@code NCCL_CROSS_NIC=0}, when every compute NIC has a rail: each ring and tree stays on one
 *     rail ({@code src/graph/search.cc}, {@code NCCL_PARAM(CrossNic, "CROSS_NIC", 2)}, read by
 *     {@code ncclTopoCheckCrossNicSupport}, {@code ncclTopoGetGraphFromXmlSub},
 *     {@code ncclTopoGetNetDev}).</li>
 * <li>{@code NCCL_IB_GID_INDEX=N}, when every compute NIC is RoCE and their RoCE v2 IPv4 GIDs share
 *     index N ({@link ComputeNic#gidIndex()}); else a {@link Code#MIXED_GID_INDEX} finding and NCCL's
 *     own choice, which with its defaults ({@code NCCL_IB_ROCE_VERSION_NUM=2},
 *     {@code NCCL_IB_ADDR_FAMILY} AF_INET) looks for the same entry. {@code ncclIbGetGidIndex},
 *     {@code src/transport/net_ib/connect.cc}; RoCE ports only (InfiniBand takes index 0 or the
 *     routable FLID's).</li>
 * <li>{@code NCCL_SOCKET_IFNAME==eth0}, the netdev of the node's management address, when its record
 *     says: {@code ncclFindInterfaces} ({@code src/misc/socket.cc}), then {@code ncclOsFindInterfaces}
 *     ({@code src/os/linux.cc}), with the same prefixes and parser.</li>
 * <li>{@code NCCL_IB_SUBNET_AWARE_ROUTING=1}, when every compute NIC is RoCE with an IPv4 address,
 *     each of the node's rails and cables is one subnet (no {@link Code#SUBNET_MISMATCH}), and NCCL
 *     pairs one of its NICs with a NIC of another rail or cable ({@link NcclPairing}: by position) or
 *     its NICs are cabled directly to several nodes. NCCL then picks the local NIC on the peer's
 *     subnet, comparing the IPv4-mapped GIDs' first {@code NCCL_IB_SUBNET_PREFIX_LEN} bits (default
 *     {@value #SUBNET_PREFIX_LEN}): {@code ncclIbFindDevBySubnet} and {@code gidSameSubnet} in
 *     {@code connect.cc}, called from {@code ncclIbConnectImpl} and {@code ncclIbAcceptImpl}. A rail
 *     id alone cannot say which cable reaches which peer.</li>
 * </ul>
 *
 * <p>Findings:
 * <ul>
 * <li>{@link Code#UNKNOWN_FAR_END}, a warning: a compute NIC without a rail (NCCL may pair it with any NIC).</li>
 * <li>{@link Code#SUBNET_MISMATCH}: an error when the ends of a direct cable share no /24 (the RoCE v2
 *     peer's address routes elsewhere); a warning when a NIC shares none with another NIC of its
 *     switched rail (only a routed fabric carries it), or NICs of the node on two rails or cables
 *     share one (subnet-aware routing cannot tell them apart).</li>
 * <li>{@link Code#UNLISTABLE_NAME}, an error: a name NCCL would misparse.</li>
 * <li>{@link Code#LIST_LIMIT}, an error: more than {@value #MAX_IB_DEVS} compute NICs (and no
 *     {@code NCCL_IB_HCA}).</li>
 * <li>{@link Code#CROSS_RAIL}: a NIC NCCL pairs by position with a NIC of another rail or cable; a
 *     warning when subnet-aware routing, as railmap sets it on both nodes, makes every such pair meet
 *     on one rail, else an error naming the cable to move.</li>
 * </ul>
 */
public final class NcclLibrary implements Library {
    /** {@code MAX_IB_DEVS}, NVIDIA/nccl {@code src/transport/net_ib/common.h}. */
    public static final int MAX_IB_DEVS = 32;
    /** {@code sizeof(netIf.prefix) - 1}, NVIDIA/nccl {@code src/include/utils.h}. */
    public static final int MAX_PREFIX_CHARS = 63;
    /** Default {@code NCCL_IB_SUBNET_PREFIX_LEN}, NVIDIA/nccl {@code src/transport/net_ib/connect.cc}. */
    static final int SUBNET_PREFIX_LEN = 24;
    /** The peers' NICs one finding names at most. */
    private static final int MAX_NAMED = 3;

    @Override
    public String name() {
        return "nccl";
    }

    @Override
    public EnvRules envRules() {
        return NcclEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        List<Setting> settings = new ArrayList<>();
        List<Finding> findings = new ArrayList<>(node.findings());
        List<ComputeNic> nics = node.nics();
        List<String> entries = new ArrayList<>();
        for (ComputeNic nic : nics) {
            Optional<String> bad = unparseable(nic.hca());
            if (bad.isPresent()) {
                findings.add(error(Code.UNLISTABLE_NAME, Optional.empty(), "NCCL_IB_HCA cannot name " + nic.hca() + " on " + node.node()
                        + ": " + bad.get() + " (NCCL's parseStringList); rename the device or leave it out with --min-rate-gbps"));
                continue;
            }
            entries.add(nic.hcaPort() + nic.rail().map(r -> ":" + r).orElse(""));
            if (nic.rail().isEmpty()) {
                findings.add(new Finding(Code.UNKNOWN_FAR_END, Severity.WARNING, List.of(), Optional.empty(), List.of(nic.port().ref()), nic.hcaPort() + " ("
                        + nic.port().ref() + ") has no rail: no switch or direct cable is known at its far end, so NCCL may pair it"
                        + " with a NIC of another rail; check its cable, lldpd or the link probe"));
            }
        }
        if (entries.size() > MAX_IB_DEVS) {
            findings.add(error(Code.LIST_LIMIT, Optional.empty(), node.node() + " has " + entries.size() + " compute NICs; NCCL reads "
                    + MAX_IB_DEVS + " NCCL_IB_HCA entries (MAX_IB_DEVS) and ignores the rest; raise --min-rate-gbps"));
        } else if (!entries.isEmpty()) {
            settings.add(new Setting("NCCL_IB_HCA", "=" + String.join(",", entries)));
        }
        if (!nics.isEmpty() && nics.stream().allMatch(n -> n.rail().isPresent())) {
            settings.add(new Setting("NCCL_CROSS_NIC", "0"));
        }
        ComputeNics.sharedGidIndex(nics).ifPresentOrElse(i -> settings.add(new Setting("NCCL_IB_GID_INDEX", Integer.toString(i))), () -> {
            if (!nics.isEmpty() && nics.stream().allMatch(n -> n.port().kind() == PortKind.ROCE)) {
                findings.add(new Finding(Code.MIXED_GID_INDEX, Severity.WARNING, List.of(), Optional.empty(), "NCCL_IB_GID_INDEX left out: the"
                        + " RoCE v2 IPv4 GID index of " + node.node() + "'s compute NICs is not one number (" + nics.stream()
                        .map(n -> n.hcaPort() + " " + n.gidIndex().map(String::valueOf).orElse("unknown")).collect(Collectors.joining(", "))
                        + "); NCCL picks per NIC (ncclIbGetGidIndex)"));
            }
        });
        node.management().filter(m -> unparseable(m.netdev()).isEmpty())
                .ifPresent(m -> settings.add(new Setting("NCCL_SOCKET_IFNAME", "=" + m.netdev())));
        List<Finding> subnets = subnets(node);
        findings.addAll(subnets);
        NcclPairing pairing = new NcclPairing(node);
        List<NcclPairing.Crossed> crossed = pairing.crossed();
        boolean aware = subnetAware(node, subnets, !crossed.isEmpty());
        findings.addAll(crossed(node, pairing, crossed, aware));
        if (aware) {
            settings.add(new Setting("NCCL_IB_SUBNET_AWARE_ROUTING", "1"));
        }
        return new NodeSettings(name(), node.node(), settings, findings);
    }

    /**
     * @param node the node
     * @return why the node needs {@code NCCL_IB_SUBNET_AWARE_ROUTING=1} (a sentence), empty when
     *         railmap does not write it ({@link #settings} writes it exactly when this is present)
     */
    public static Optional<String> subnetAwareRouting(NodeNics node) {
        boolean crossed = !new NcclPairing(node).crossed().isEmpty();
        if (!subnetAware(node, subnets(node), crossed)) {
            return Optional.empty();
        }
        return Optional.of(crossed
                ? "NCCL pairs a NIC of " + node.node() + ", by position, with a NIC on another rail or cable, and routing by subnet"
                        + " makes it take the local NIC on the peer's subnet"
                : node.node() + "'s compute NICs are cabled directly to " + directPeers(node) + " nodes, and a rail id cannot say"
                        + " which cable reaches which peer");
    }

    /**
     * @param subnets  the node's {@code subnet-mismatch} findings
     * @param crossed  whether NCCL pairs one of its NICs, by position, with a NIC of another rail
     * @return true when the node sets {@code NCCL_IB_SUBNET_AWARE_ROUTING=1}: every compute NIC is
     *         RoCE with an IPv4 address, its rails and cables are each one subnet, and it has a
     *         crossed pairing or direct cables to several nodes
     */
    private static boolean subnetAware(NodeNics node, List<Finding> subnets, boolean crossed) {
        return subnets.isEmpty() && !node.nics().isEmpty()
                && node.nics().stream().allMatch(n -> n.port().kind() == PortKind.ROCE && !n.port().ipv4().isEmpty())
                && (crossed || directPeers(node) > 1);
    }

    /**
     * One {@code cross-rail} finding per NIC of the node that NCCL pairs, by position, with a NIC of
     * another rail or cable ({@link NcclPairing}): NCCL's rings and trees assume identical nodes, and
     * the rail id only picks which local NIC enters and leaves a channel, so the label cannot fix it.
     * A warning when subnet-aware routing makes every such pair meet on one rail (both nodes'
     * settings as railmap writes them); else an error naming the cable to move. A NIC on the rail
     * where the same-named NIC of most nodes is, paired with one that is not, is left to the other
     * node's finding.
     */
    private static List<Finding> crossed(NodeNics node, NcclPairing pairing, List<NcclPairing.Crossed> crossed, boolean aware) {
        Map<ComputeNic, List<NcclPairing.Crossed>> byNic = new LinkedHashMap<>();
        for (NcclPairing.Crossed c : crossed) {
            if (!(pairing.atHome(c.local()) && !pairing.atHome(c.remote()))) {
                byNic.computeIfAbsent(c.local(), n -> new ArrayList<>()).add(c);
            }
        }
        List<Finding> out = new ArrayList<>();
        byNic.forEach((nic, pairs) -> {
            boolean routed = pairs.stream().allMatch(c -> pairing.routedBySubnet(c, aware,
                    subnetAware(c.peer(), subnets(c.peer()), true)));
            Optional<Rail> on = node.rails().railOf(nic.port().ref());
            Optional<Rail> home = node.rails().homeOf(nic.port());
            String where;
            String move;
            List<PortRef> named = new ArrayList<>(List.of(nic.port().ref()));
            if (on.isPresent() && home.isPresent() && on.get().id() != home.get().id()) {
                where = nic.hcaPort() + " (" + nic.port().ref() + ") is on rail " + on.get().id() + " (" + on.get().name() + "), but "
                        + nic.hca() + " of most nodes is on rail " + home.get().id() + " (" + home.get().name() + ")";
                move = "move " + node.node() + "'s " + nic.hca() + " cable to " + home.get().name();
            } else {
                NcclPairing.Crossed first = pairs.get(0);
                named.addAll(pairing.reachPorts(first.local().port()));
                pairs.stream().limit(MAX_NAMED).forEach(c -> {
                    named.add(c.remote().port().ref());
                    named.addAll(pairing.reachPorts(c.remote().port()));
                });
                where = nic.hcaPort() + " (" + nic.port().ref() + ") reaches " + first.localReach() + ", but NIC " + (first.position() + 1)
                        + " of " + pairs.stream().limit(MAX_NAMED).map(c -> c.peer().node() + ", " + c.remote().hcaPort() + " (" + c.remote().port().ref()
                                + "), reaches " + c.remoteReach()).collect(Collectors.joining("; of "))
                        + (pairs.size() > MAX_NAMED ? "; and of " + (pairs.size() - MAX_NAMED) + " more nodes" : "");
                move = on.isEmpty() ? "cable " + node.node() + "'s " + nic.hca() + " to " + first.peer().node() + "'s " + first.remote().hca()
                        : "cable NIC " + (first.position() + 1) + " of every node to one switch";
            }
            where += "; NCCL pairs NICs of two nodes by their position, not by rail id, ";
            Optional<Integer> rail = home.map(Rail::id).or(nic::rail);
            out.add(routed
                    ? new Finding(Code.CROSS_RAIL, Severity.WARNING, List.of(), rail, named, where
                            + "so NCCL_IB_SUBNET_AWARE_ROUTING=1 is set: NCCL takes the local NIC on the peer's subnet; " + move
                            + " to run at full rail bandwidth without it")
                    : error(Code.CROSS_RAIL, rail, named, where + "so it would join two rails (through the spine, or nowhere): " + move));
        });
        return out;
    }

    private static Finding error(Code code, Optional<Integer> rail, String message) {
        return error(code, rail, List.of(), message);
    }

    private static Finding error(Code code, Optional<Integer> rail, List<PortRef> ports, String message) {
        return new Finding(code, Severity.ERROR, List.of(), rail, ports, message);
    }

    /** @return why NCCL's parseStringList would not read this name back whole, or empty */
    static Optional<String> unparseable(String name) {
        if (name.length() > MAX_PREFIX_CHARS) {
            return Optional.of("its name is longer than " + MAX_PREFIX_CHARS + " characters");
        }
        if (name.contains(",") || name.contains(":")) {
            return Optional.of("its name holds ',' or ':'");
        }
        if (name.startsWith("^") || name.startsWith("=")) {
            return Optional.of("its name starts with '^' or '='");
        }
        return Optional.empty();
    }

    /** @return how many other nodes the node's compute NICs reach over direct cables */
    private static long directPeers(NodeNics node) {
        return node.nics().stream().filter(n -> node.rails().railOf(n.port().ref()).isEmpty())
                .flatMap(n -> node.topology().cableAt(n.port().ref()).stream().map(c -> c.farEnd(n.port().ref()).node()))
                .distinct().count();
    }

    static List<Finding> subnets(NodeNics node) {
        List<Finding> findings = new ArrayList<>();
        for (ComputeNic nic : node.nics()) {
            Port port = nic.port();
            if (port.ipv4().isEmpty()) {
                continue;
            }
            Optional<Rail> rail = node.rails().railOf(port.ref());
            if (rail.isPresent()) {
                Map<String, PortRef> apart = new TreeMap<>();
                for (RailNic other : rail.get().nics()) {
                    node.topology().port(other.port()).filter(o -> !o.ref().equals(port.ref()) && !o.ipv4().isEmpty()
                            && !shareSubnet(port, o)).ifPresent(o -> apart.put(o.ref() + " " + String.join(" ", o.ipv4()), o.ref()));
                }
                if (!apart.isEmpty()) {
                    String named = apart.keySet().stream().limit(MAX_NAMED).collect(Collectors.joining(", "))
                            + (apart.size() > MAX_NAMED ? " and " + (apart.size() - MAX_NAMED) + " more NICs" : "");
                    List<PortRef> ports = new ArrayList<>(List.of(port.ref()));
                    apart.values().stream().limit(MAX_NAMED).forEach(ports::add);
                    findings.add(new Finding(Code.SUBNET_MISMATCH, Severity.WARNING, List.of(), Optional.of(rail.get().id()), ports, port.ref() + " "
                            + String.join(" ", port.ipv4()) + " shares no /" + SUBNET_PREFIX_LEN + " with " + named
                            + " on rail " + rail.get().id() + ": only a routed fabric carries it, and NCCL's subnet-aware routing"
                            + " (ncclIbFindDevBySubnet) would pick other NICs; put one rail's NICs on one /" + SUBNET_PREFIX_LEN
                            + " (a larger rail subnet needs NCCL_IB_SUBNET_PREFIX_LEN set to its length)"));
                }
                continue;
            }
            Optional<Cable> cable = node.topology().cableAt(port.ref());
            Optional<Port> far = cable.flatMap(c -> node.topology().port(c.farEnd(port.ref())));
            if (far.isPresent() && !far.get().ipv4().isEmpty() && !shareSubnet(port, far.get())) {
                findings.add(new Finding(Code.SUBNET_MISMATCH, Severity.ERROR, List.of(), nic.rail(),
                        List.of(cable.get().a(), cable.get().b(), port.ref(), far.get().ref()), "the two ends of cable "
                        + cable.get() + " share no /" + SUBNET_PREFIX_LEN + " (" + port.ref() + " " + String.join(" ", port.ipv4()) + ", "
                        + far.get().ref() + " " + String.join(" ", far.get().ipv4()) + "): RoCE v2 reaches the peer's GID by its IPv4"
                        + " address, which does not route over this cable; give both ends addresses in one /" + SUBNET_PREFIX_LEN));
            }
        }
        findings.addAll(sharedSubnets(node));
        return findings;
    }

    /**
     * One {@link Code#SUBNET_MISMATCH} warning per /{@value #SUBNET_PREFIX_LEN} that the node's RoCE
     * compute NICs on different rails or direct cables share. {@code ncclIbFindDevBySubnet}
     * ({@code src/transport/net_ib/connect.cc}) keeps the NIC NCCL picked when its GID shares the
     * peer's subnet ({@code gidSameSubnet}) and else takes the first NIC that does, so it cannot tell
     * two rails or cables on one subnet apart: a NIC on the wrong one is kept. railmap then leaves
     * {@code NCCL_IB_SUBNET_AWARE_ROUTING} unset, and a pairing that joins two rails stays an error.
     */
    private static List<Finding> sharedSubnets(NodeNics node) {
        Map<Ipv4Subnet, Map<String, List<ComputeNic>>> bySubnet = new TreeMap<>(Comparator.comparingLong(Ipv4Subnet::network));
        for (ComputeNic nic : node.nics()) {
            Port port = nic.port();
            Optional<String> reach = node.reach(port.ref());
            if (port.kind() != PortKind.ROCE || reach.isEmpty()) {
                continue;
            }
            port.ipv4().stream().map(NcclLibrary::subnet).distinct().forEach(net -> bySubnet.computeIfAbsent(net, x -> new LinkedHashMap<>())
                    .computeIfAbsent(reach.get(), x -> new ArrayList<>()).add(nic));
        }
        List<Finding> out = new ArrayList<>();
        bySubnet.forEach((net, byReach) -> {
            if (byReach.size() < 2) {
                return;
            }
            // each NIC, then a cable's far end, as the message names them
            List<PortRef> ports = byReach.values().stream().flatMap(List::stream).flatMap(n -> Stream.concat(
                    Stream.of(n.port().ref()), node.rails().railOf(n.port().ref()).isPresent() ? Stream.empty()
                            : node.topology().cableAt(n.port().ref()).stream().map(c -> c.farEnd(n.port().ref())))).distinct().toList();
            out.add(new Finding(Code.SUBNET_MISMATCH, Severity.WARNING, List.of(), Optional.empty(), ports, byReach.entrySet().stream()
                    .map(e -> e.getValue().stream().map(n -> n.hcaPort() + " (" + n.port().ref() + " " + String.join(" ", n.port().ipv4()) + ")")
                            .collect(Collectors.joining(", ")) + " on " + e.getKey()).collect(Collectors.joining("; ")) + ": "
                    + node.node() + "'s " + byReach.size() + " rails or cables share " + net + ", so NCCL's subnet-aware routing"
                    + " (ncclIbFindDevBySubnet) keeps a NIC on the wrong one whenever its subnet matches the peer's; railmap leaves"
                    + " NCCL_IB_SUBNET_AWARE_ROUTING unset; give each rail and each cable its own /" + SUBNET_PREFIX_LEN));
        });
        return out;
    }

    /** @return true when some IPv4 address of each shares the first {@value #SUBNET_PREFIX_LEN} bits (NCCL's gidSameSubnet) */
    static boolean shareSubnet(Port a, Port b) {
        Set<Ipv4Subnet> nets = a.ipv4().stream().map(NcclLibrary::subnet).collect(Collectors.toSet());
        return b.ipv4().stream().map(NcclLibrary::subnet).anyMatch(nets::contains);
    }

    private static Ipv4Subnet subnet(String ipv4) {
        return Ipv4Subnet.of(ipv4, SUBNET_PREFIX_LEN);
    }
}
