package io.railmap.matrix.library;

import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.check.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the variables of an existing environment file ({@link EnvFile}) against one node's cables,
 * reading each variable as its library does (see each Library class for the source):
 * <ul>
 * <li>{@code NCCL_IB_HCA} ({@link NcclLibrary}): {@code ^} excludes (not checked), {@code =} asks
 *     for exact names, else a name is a prefix; entries split at {@code ,}, fields at {@code :}
 *     (name cut to 63 characters, port, rail; empty is any); an entry with an empty name is dropped;
 *     at most 32 entries read.</li>
 * <li>{@code UCX_NET_DEVICES} ({@link UcxLibrary}; NIXL and ModelExpress read it too): {@code all}
 *     and {@code ^...} are not checked; {@code name[a-b]} expands; an entry is {@code hca:port}, an
 *     RDMA device (every port) or a netdev; more than 64 entries abort UCX.</li>
 * <li>{@code MX_RDMA_NIC_PIN} ({@link ModelExpressLibrary}): a list when it holds a comma, entries
 *     stripped, as UCX entries; {@code MX_RDMA_NIC_PIN_MIN_RATE_GBPS} as Python's {@code float()}.</li>
 * <li>{@code NVSHMEM_HCA_LIST} ({@link NvshmemLibrary}): {@code ^} excludes (not checked), entries
 *     {@code name[:port[:count]]}, exact names; at most 48 entries read.</li>
 * </ul>
 * Errors: a device the node lacks ({@link Code#UNKNOWN_HCA}) or whose port is down
 * ({@link Code#LINK_DOWN}); a management NIC, or an RDMA NIC slower than the compute NICs, in an
 * RDMA list ({@link Code#SIDE_NIC_IN_LIST}); an NCCL rail id other than the NIC's rail
 * ({@link Code#WRONG_RAIL_ID}); more entries than the library reads ({@link Code#LIST_LIMIT});
 * a value the library misreads ({@link Code#BAD_SETTING}).
 */
public final class EnvCheck {
    /** The variables checked, in the order checked. */
    public static final List<String> VARIABLES = List.of("NCCL_IB_HCA", "UCX_NET_DEVICES", "MX_RDMA_NIC_PIN",
            "MX_RDMA_NIC_PIN_MIN_RATE_GBPS", "NVSHMEM_HCA_LIST");
    private static final Pattern RANGE = Pattern.compile("([^\\]\\[]*)\\[([0-9]{1,9})-([0-9]{1,9})\\]([^\\]\\[]*)");
    private static final Pattern PY_FLOAT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern PY_NONFINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    /** Most entries a UCX range expands to before railmap stops (UCX aborts past 64 anyway). */
    private static final int MAX_EXPANDED = UcxLibrary.MAX_LANES + 1;

    private EnvCheck() {
    }

    /**
     * @param node what the node has ({@link ComputeNics#of})
     * @param vars the file's variables ({@link EnvFile#parse}); variables of no library here are ignored
     * @return the findings, errors first by variable in the order above
     */
    public static List<Finding> check(NodeNics node, Map<String, String> vars) {
        List<Finding> out = new ArrayList<>();
        Optional.ofNullable(vars.get("NCCL_IB_HCA")).ifPresent(v -> nccl(node, v, out));
        Optional.ofNullable(vars.get("UCX_NET_DEVICES")).ifPresent(v -> ucx(node, "UCX_NET_DEVICES", v, out));
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN")).ifPresent(v -> mx(node, v.strip(), out));
        Optional.ofNullable(vars.get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS")).ifPresent(v -> rate(v, out));
        Optional.ofNullable(vars.get("NVSHMEM_HCA_LIST")).ifPresent(v -> nvshmem(node, v, out));
        return out;
    }

    private static void nccl(NodeNics node, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        boolean exact = value.startsWith("=");
        // parseStringList keeps an entry only when its name is not empty (ifC > 0): ":1" is dropped
        List<String> entries = entries(exact ? value.substring(1) : value).stream().filter(e -> !e.startsWith(":")).toList();
        limit(node, "NCCL_IB_HCA", entries, NcclLibrary.MAX_IB_DEVS, "MAX_IB_DEVS", out);
        for (String entry : entries.subList(0, Math.min(entries.size(), NcclLibrary.MAX_IB_DEVS))) {
            String[] f = entry.split(":", -1);
            String name = f[0].length() > NcclLibrary.MAX_PREFIX_CHARS ? f[0].substring(0, NcclLibrary.MAX_PREFIX_CHARS) : f[0];
            if (!numbers("NCCL_IB_HCA", entry, f, 2, out)) {
                continue;
            }
            Optional<Integer> port = field(f, 1);
            Optional<Integer> rail = field(f, 2);
            List<Port> ports = node.topology().record(node.node()).orElseThrow().ports().stream()
                    .filter(p -> p.rdma().isPresent() && (exact ? p.rdma().get().equals(name) : p.rdma().get().startsWith(name)))
                    .filter(p -> port.map(n -> n == p.rdmaPort()).orElse(true)).toList();
            for (ComputeNic nic : listed(node, "NCCL_IB_HCA", entry, ports, out)) {
                if (rail.isPresent() && nic.rail().isPresent() && !rail.equals(nic.rail())) {
                    Optional<ComputeNic> there = node.nics().stream().filter(n -> n.rail().equals(rail)).findFirst();
                    out.add(error(Code.WRONG_RAIL_ID, nic.rail(), "NCCL_IB_HCA gives " + nic.hcaPort() + " rail " + rail.get()
                            + ", but its cable puts it on rail " + nic.rail().get() + there.map(t -> ", and rail " + rail.get() + " is "
                            + t.hcaPort() + "'s").orElse("") + ": NCCL would pair NICs on different switches or cables; write "
                            + nic.hcaPort() + ":" + nic.rail().get() + " (railmap env --for nccl)"));
                }
            }
        }
    }

    private static void ucx(NodeNics node, String variable, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        List<String> entries = new ArrayList<>();
        for (String token : entries(value)) {
            Matcher m = RANGE.matcher(token);
            if (m.matches() && Long.parseLong(m.group(2)) <= Long.parseLong(m.group(3))) {
                for (long j = Long.parseLong(m.group(2)); j <= Long.parseLong(m.group(3)) && entries.size() < MAX_EXPANDED; j++) {
                    entries.add(m.group(1) + j + m.group(4));
                }
            } else if (entries.size() < MAX_EXPANDED) {
                entries.add(token);
            }
        }
        if (!entries.isEmpty() && entries.get(0).equals("all")) {
            return;
        }
        if (entries.size() > UcxLibrary.MAX_LANES) {
            out.add(error(Code.BAD_SETTING, Optional.empty(), variable + " lists more than " + UcxLibrary.MAX_LANES
                    + " devices: UCX aborts (UCP_MAX_LANES); list at most " + UcxLibrary.MAX_LANES));
            return;
        }
        for (String entry : entries) {
            devices(node, variable, entry, out);
        }
    }

    /** One UCX device entry: {@code hca:port}, an RDMA device, or a netdev (checked only for being there and up). */
    private static void devices(NodeNics node, String variable, String entry, List<Finding> out) {
        List<Port> all = node.topology().record(node.node()).orElseThrow().ports();
        List<Port> netdev = all.stream().filter(p -> p.rdma().isEmpty() && p.netdev().equals(entry)).toList();
        if (!netdev.isEmpty()) {
            netdev.stream().filter(p -> !p.active()).forEach(p -> out.add(error(Code.LINK_DOWN, Optional.empty(),
                    variable + " names " + Names.escape(entry) + " (" + p.ref() + "), which is " + p.state().name().toLowerCase(Locale.ROOT)
                            + ": bring its link up or leave it out")));
            return;
        }
        List<Port> ports = all.stream().filter(p -> p.rdma().isPresent()
                && (entry.equals(p.rdma().get() + ":" + p.rdmaPort()) || entry.equals(p.rdma().get()))).toList();
        listed(node, variable, entry, ports, out);
    }

    private static void mx(NodeNics node, String value, List<Finding> out) {
        if (!value.contains(",")) {
            return;
        }
        for (String entry : value.split(",", -1)) {
            if (!entry.strip().isEmpty()) {
                devices(node, "MX_RDMA_NIC_PIN", entry.strip(), out);
            }
        }
    }

    private static void rate(String value, List<Finding> out) {
        String v = value.strip();
        String why = PY_NONFINITE.matcher(v).matches() ? "is not a finite number"
                : !PY_FLOAT.matcher(v).matches() ? "is not a number Python's float() reads"
                : Double.parseDouble(v) < 0 ? "is negative" : Double.isInfinite(Double.parseDouble(v)) ? "is not a finite number" : null;
        if (why != null) {
            out.add(error(Code.BAD_SETTING, Optional.empty(), "MX_RDMA_NIC_PIN_MIN_RATE_GBPS \"" + Names.escape(value, 64) + "\" " + why
                    + ": ModelExpress compares each NIC's rate with it; give a rate in Gb/s ≥ 0, such as 400"));
        }
    }

    private static void nvshmem(NodeNics node, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        List<String> entries = entries(value);
        limit(node, "NVSHMEM_HCA_LIST", entries, NvshmemLibrary.MAX_HCAS, "MAX_NUM_HCAS", out);
        for (String entry : entries.subList(0, Math.min(entries.size(), NvshmemLibrary.MAX_HCAS))) {
            String[] f = entry.split(":", -1);
            if (!numbers("NVSHMEM_HCA_LIST", entry, f, 2, out)) {
                continue;
            }
            Optional<Integer> port = field(f, 1);
            List<Port> ports = node.topology().record(node.node()).orElseThrow().ports().stream()
                    .filter(p -> p.rdma().isPresent() && p.rdma().get().equals(f[0]) && port.map(n -> n == p.rdmaPort()).orElse(true)).toList();
            listed(node, "NVSHMEM_HCA_LIST", entry, ports, out);
        }
    }

    /**
     * @return the compute NICs among the ports an entry names; an error for no port, a down port, the
     *         management NIC or a NIC below the compute rate
     */
    private static List<ComputeNic> listed(NodeNics node, String variable, String entry, List<Port> ports, List<Finding> out) {
        String named = variable + " names " + Names.escape(entry, 80);
        if (ports.isEmpty()) {
            out.add(error(Code.UNKNOWN_HCA, Optional.empty(), named + ", which " + node.node() + " does not have (its compute NICs: "
                    + (node.nics().isEmpty() ? "none" : NicLists.hcaPorts(node.nics())) + "); fix the name or leave it out"));
            return List.of();
        }
        List<ComputeNic> nics = new ArrayList<>();
        for (Port p : ports) {
            String which = named + " (" + p.rdma().orElse(p.netdev()) + ":" + p.rdmaPort() + ", " + p.ref() + ")";
            Optional<ComputeNic> nic = node.nics().stream().filter(n -> n.port().ref().equals(p.ref())).findFirst();
            if (!p.active()) {
                out.add(error(Code.LINK_DOWN, Optional.empty(), which + ", whose port is " + p.state().name().toLowerCase(Locale.ROOT)
                        + ": bring its link up or leave it out"));
            } else if (node.management().map(m -> m.ref().equals(p.ref())).orElse(false)) {
                out.add(error(Code.SIDE_NIC_IN_LIST, Optional.empty(), which + ", the management NIC: keep it out of the stripe list"));
            } else if (nic.isEmpty()) {
                out.add(error(Code.SIDE_NIC_IN_LIST, Optional.empty(), which + ", a side NIC ("
                        + p.rateGbps().map(r -> r + " Gb/s").orElse("rate unknown") + ") slower than the compute NICs: striping over it"
                        + " slows every transfer to its rate; leave it out"));
            } else {
                nics.add(nic.get());
            }
        }
        return nics;
    }

    private static void limit(NodeNics node, String variable, List<String> entries, int max, String constant, List<Finding> out) {
        if (entries.size() > max) {
            out.add(error(Code.LIST_LIMIT, Optional.empty(), variable + " on " + node.node() + " has " + entries.size()
                    + " entries; the library reads the first " + max + " (" + constant + ") and ignores " + String.join(",",
                    entries.subList(max, Math.min(entries.size(), max + 8))) + (entries.size() > max + 8 ? ",..." : "")));
        }
    }

    /** @return the value's non-empty entries split at ',' */
    private static List<String> entries(String value) {
        return List.of(value.split(",")).stream().filter(e -> !e.isEmpty()).toList();
    }

    /** @return true when fields 1 to {@code last} are absent, empty or numbers; else false after an error naming the entry */
    private static boolean numbers(String variable, String entry, String[] fields, int last, List<Finding> out) {
        for (int k = 1; k <= last && k < fields.length; k++) {
            if (!fields[k].matches("[0-9]{0,5}")) {
                out.add(error(Code.BAD_SETTING, Optional.empty(), variable + " entry " + Names.escape(entry, 80) + ": \""
                        + Names.escape(fields[k], 40) + "\" is not a number; write hca:port" + (variable.startsWith("NCCL") ? ":rail" : "")
                        + ", such as mlx5_0:1" + (variable.startsWith("NCCL") ? ":0" : "")));
                return false;
            }
        }
        return true;
    }

    /** @return field k as a number, empty when absent or empty (any) */
    private static Optional<Integer> field(String[] fields, int k) {
        return fields.length <= k || fields[k].isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(fields[k]));
    }

    private static Finding error(Code code, Optional<Integer> rail, String message) {
        return new Finding(code, Severity.ERROR, List.of(), rail, message);
    }
}
