package io.railmap.matrix.library;

import static io.railmap.matrix.library.ListedPorts.error;
import static io.railmap.matrix.library.ListedPorts.quoted;
import static io.railmap.matrix.library.ListedPorts.warning;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * UCX's variables railmap writes ({@link UcxLibrary}; NIXL and ModelExpress read them too), read as
 * openucx/ucx reads them: a value UCX's parser refuses ({@code src/ucs/config/parser.c}) makes
 * {@code ucp_config_read} fail, so UCX does not start.
 */
final class UcxEnvCheck {
    static final List<String> VARIABLES = List.of("UCX_NET_DEVICES", "UCX_MAX_RMA_RAILS", "UCX_MAX_RNDV_RAILS", "UCX_MAX_HCA_PER_GPU",
            "UCX_IB_GID_INDEX");
    /** The rules the libraries that read these variables name. */
    static final EnvRules RULES = new EnvRules(VARIABLES, UcxEnvCheck::check);
    /** UCX's {@code ULUNITS} {@code inf}: {@code (unsigned long)-1} ({@code UCS_ULUNITS_INF}, {@code src/ucs/sys/string.h}). */
    private static final BigInteger ULUNITS_INF = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    /** UCX's {@code ULUNITS} {@code auto}: {@code (unsigned long)-2} ({@code UCS_ULUNITS_AUTO}). */
    private static final BigInteger ULUNITS_AUTO = ULUNITS_INF.subtract(BigInteger.ONE);
    private static final Pattern RANGE = Pattern.compile("([^\\]\\[]*)\\[([0-9]{1,9})-([0-9]{1,9})\\]([^\\]\\[]*)");
    /** Most entries a UCX range expands to before railmap stops (UCX aborts past 64 anyway). */
    private static final int MAX_EXPANDED = UcxLibrary.MAX_LANES + 1;

    private UcxEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Set<ComputeNic> striped = Optional.ofNullable(vars.get("UCX_NET_DEVICES")).map(v -> netDevices(node, v, out))
                .orElseGet(() -> new LinkedHashSet<>(node.nics()));
        for (String variable : List.of("UCX_MAX_RMA_RAILS", "UCX_MAX_RNDV_RAILS")) {
            Optional.ofNullable(vars.get(variable)).ifPresent(v -> rails(variable, v, striped, out));
        }
        maxHcaPerGpu(vars, MxEnvCheck.striped(node, vars), striped, out);
        Optional.ofNullable(vars.get("UCX_IB_GID_INDEX")).ifPresent(v -> gidIndex(node, v, out));
    }

    /**
     * {@code UCX_NET_DEVICES}: {@code all} and {@code ^...} are not checked; {@code name[a-b]} expands;
     * an entry is {@code hca:port}, an RDMA device (every port) or a netdev; more than 64 entries
     * abort UCX.
     *
     * @return the compute NICs UCX stripes over: those listed, all but those listed after {@code ^},
     *         all for {@code all}
     */
    private static Set<ComputeNic> netDevices(NodeNics node, String value, List<Finding> out) {
        boolean negate = value.startsWith("^");
        List<String> entries = new ArrayList<>();
        for (String token : ListedPorts.entries(negate ? value.substring(1) : value)) {
            Matcher m = RANGE.matcher(token);
            if (m.matches() && Long.parseLong(m.group(2)) <= Long.parseLong(m.group(3))) {
                for (long j = Long.parseLong(m.group(2)); j <= Long.parseLong(m.group(3)) && entries.size() < MAX_EXPANDED; j++) {
                    entries.add(m.group(1) + j + m.group(4));
                }
            } else if (entries.size() < MAX_EXPANDED) {
                entries.add(token);
            }
        }
        if (!negate && !entries.isEmpty() && entries.get(0).equals("all")) {
            return new LinkedHashSet<>(node.nics());
        }
        if (negate) {
            Set<ComputeNic> kept = new LinkedHashSet<>(node.nics());
            kept.removeIf(n -> entries.contains(n.hcaPort()) || entries.contains(n.hca()));
            return kept;
        }
        if (entries.size() > UcxLibrary.MAX_LANES) {
            out.add(error(Code.BAD_SETTING, "UCX_NET_DEVICES lists more than " + UcxLibrary.MAX_LANES
                    + " devices: UCX aborts (UCP_MAX_LANES); list at most " + UcxLibrary.MAX_LANES));
            return new LinkedHashSet<>();
        }
        Set<ComputeNic> listed = new LinkedHashSet<>();
        for (String entry : entries) {
            listed.addAll(devices(node, "UCX_NET_DEVICES", entry, out));
        }
        return listed;
    }

    /**
     * One UCX device entry: {@code hca:port}, an RDMA device, or a netdev (checked only for being
     * there and up).
     *
     * @return the compute NICs it names
     */
    static List<ComputeNic> devices(NodeNics node, String variable, String entry, List<Finding> out) {
        List<Port> all = ListedPorts.ports(node);
        List<Port> netdev = all.stream().filter(p -> p.rdma().isEmpty() && p.netdev().equals(entry)).toList();
        if (!netdev.isEmpty()) {
            netdev.stream().filter(p -> !p.active()).forEach(p -> out.add(error(Code.LINK_DOWN, List.of(p.ref()), variable + " names "
                    + Names.escape(entry) + " (" + p.ref() + "), which is " + ListedPorts.state(p) + ": bring its link up or leave it out")));
            return List.of();
        }
        List<Port> ports = all.stream().filter(p -> p.rdma().isPresent()
                && (entry.equals(p.rdma().get() + ":" + p.rdmaPort()) || entry.equals(p.rdma().get()))).toList();
        return ListedPorts.listed(node, variable, entry, ports, out);
    }

    /**
     * {@code UCX_MAX_RMA_RAILS}, {@code UCX_MAX_RNDV_RAILS} ({@code ucp_context.c}, type
     * {@code UINT}: {@code ucs_config_sscanf_uint} takes {@code inf} as UINT_MAX, else
     * {@code sscanf("%u")}, which fails without a digit). The protocols keep the count in an 8-bit
     * {@code ucp_lane_index_t} ({@code ucp_proto_multi_init_params_t.max_lanes}, {@code proto_multi.h}),
     * asserting it is at most {@code UCP_MAX_LANES} (64; {@code ucp_proto_multi_check_params}) and
     * finding no protocol at 0: above 64 is an error; below the compute NICs UCX is given, a warning.
     */
    private static void rails(String variable, String value, Set<ComputeNic> striped, List<Finding> out) {
        CNumber n = CNumber.read(value, 10);
        if (!value.equalsIgnoreCase("inf") && n.none()) {
            out.add(error(Code.BAD_SETTING, variable + " " + quoted(value) + " is not a number UCX reads (ucs_config_sscanf_uint):"
                    + " UCX refuses its configuration and does not start; write the number of compute NICs, " + striped.size()));
            return;
        }
        long rails = value.equalsIgnoreCase("inf") ? 0xffff_ffffL : n.asUnsigned32();
        if (rails > UcxLibrary.MAX_LANES) {
            out.add(error(Code.BAD_SETTING, variable + " " + quoted(value) + " is " + rails + ", above UCX's " + UcxLibrary.MAX_LANES
                    + " lanes (UCP_MAX_LANES): its protocols keep the count in 8 bits (ucp_lane_index_t), so it trips"
                    + " ucp_proto_multi_check_params's assertion on debug builds and wraps modulo 256 (256 is 0: no multi-rail"
                    + " protocol at all); write " + Math.max(1, striped.size())));
        } else if (rails < striped.size()) {
            out.add(warning(Code.LIST_LIMIT, variable + "=" + rails + ", but UCX is given " + striped.size() + " compute NICs ("
                    + ComputeNic.hcaPorts(List.copyOf(striped)) + "): " + (variable.contains("RMA") ? "RMA" : "rendezvous")
                    + " stripes over " + rails + " of them; write " + striped.size() + " (railmap env --for ucx)"));
        }
    }

    /**
     * {@code UCX_MAX_HCA_PER_GPU} (openucx/ucx 1.21 and newer, {@code src/ucp/core/ucp_context.c},
     * {@code MAX_HCA_PER_GPU}, default {@code inf}, type {@code ULUNITS}: {@code src/ucs/config/parser.c},
     * {@code ucs_config_sscanf_ulunits} takes {@code auto} and {@code inf} by {@code strcasecmp}, else
     * {@code sscanf("%lu")}, which skips leading white-space, takes a sign (negating modulo 2^64) and
     * ignores what follows the digits, and fails without a digit: UCX then refuses its configuration).
     * {@code inf} ({@code (unsigned long)-1}) registers GPU memory on every HCA; {@code auto}
     * ({@code (unsigned long)-2}) only on the nearest, N on the N nearest ({@code ucp_context_select_reg_mds};
     * {@code ucp_memh_apply_reg_policy}, {@code src/ucp/core/ucp_mm.c}, for CUDA memory), so the
     * other NICs of the stripe cannot carry it. NIXL's UCX backend sets {@code auto} when the variable
     * is not in the environment ({@code nixlUcxContext}, ai-dynamo/nixl {@code src/plugins/ucx/ucx_utils.cpp}),
     * and ModelExpress moves GPU memory through it.
     *
     * <p>Judged against the compute NICs UCX is given (the stripe mode's when {@code MX_RDMA_NIC_PIN}
     * is that mode, else {@code UCX_NET_DEVICES}'s): anything but {@code auto}, {@code inf} or digits
     * is an error ({@link Code#BAD_SETTING}) saying what UCX reads; {@code auto} or fewer than those
     * NICs, or unset with the stripe mode, a {@link Code#LIST_LIMIT} warning; unset in a file that
     * sets {@code UCX_NET_DEVICES} to several and stripes RMA ({@code UCX_MAX_RMA_RAILS} ≥ 2, what NIXL
     * moves memory with), a {@link Code#SETTING_CAVEAT} info: UCX alone takes {@code inf}, NIXL would not.
     */
    private static void maxHcaPerGpu(Map<String, String> vars, Optional<List<ComputeNic>> mxStripe, Set<ComputeNic> listed,
            List<Finding> out) {
        List<ComputeNic> nics = mxStripe.orElseGet(() -> List.copyOf(listed));
        String value = vars.get("UCX_MAX_HCA_PER_GPU");
        String stripe = (mxStripe.isPresent() ? "MX_RDMA_NIC_PIN=" + vars.get("MX_RDMA_NIC_PIN").strip() + " stripes over "
                : vars.containsKey("UCX_NET_DEVICES") ? "UCX_NET_DEVICES gives UCX " : "UCX uses all ") + nics.size() + " compute NICs (" + ComputeNic.hcaPorts(nics) + ")";
        String write = "write UCX_MAX_HCA_PER_GPU=inf (railmap env --for nixl)";
        if (value == null) {
            if (nics.size() < 2) {
                return;
            }
            if (mxStripe.isPresent()) {
                out.add(warning(Code.LIST_LIMIT, "UCX_MAX_HCA_PER_GPU is not set, and " + stripe + ": ModelExpress moves GPU memory"
                        + " through NIXL's UCX backend, which then sets it to auto on UCX 1.21 and newer (nixlUcxContext), so UCX"
                        + " registers GPU memory only on the HCAs nearest the GPU (ucp_context_select_reg_mds) and the other NICs"
                        + " cannot carry it; " + write));
            } else if (vars.containsKey("UCX_NET_DEVICES") && Optional.ofNullable(vars.get("UCX_MAX_RMA_RAILS"))
                    .map(r -> r.equalsIgnoreCase("inf") || CNumber.read(r, 10).asUnsigned32() >= 2).orElse(false)) {
                out.add(new Finding(Code.SETTING_CAVEAT, Severity.INFO, List.of(), Optional.empty(), "UCX_MAX_HCA_PER_GPU is not set"
                        + " and " + stripe + ": UCX alone then registers GPU memory on every HCA (inf), but NIXL's UCX backend sets"
                        + " auto on UCX 1.21 and newer (nixlUcxContext), the HCAs nearest the GPU only; if NIXL reads this file, " + write));
            }
            return;
        }
        Optional<BigInteger> read = ulunits(value);
        String v = value.toLowerCase(Locale.ROOT);
        if (read.isEmpty() || !(v.equals("auto") || v.equals("inf") || value.strip().matches("[0-9]+"))) {
            out.add(error(Code.BAD_SETTING, "UCX_MAX_HCA_PER_GPU " + quoted(value) + " is not auto, inf or a whole number"
                    + " (ucs_config_sscanf_ulunits): " + read.map(r -> "UCX reads it as " + named(r))
                    .orElse("UCX refuses its configuration and does not start") + "; " + write));
            return;
        }
        BigInteger hcas = read.get();
        if (hcas.equals(ULUNITS_INF) || nics.size() < 2) {
            return;
        }
        if (hcas.equals(ULUNITS_AUTO) || hcas.compareTo(BigInteger.valueOf(nics.size())) < 0) {
            out.add(warning(Code.LIST_LIMIT, "UCX_MAX_HCA_PER_GPU=" + named(hcas) + ", but " + stripe + ": UCX registers GPU memory "
                    + (hcas.equals(ULUNITS_AUTO) ? "only on the HCAs nearest the GPU" : hcas.signum() == 0 ? "on no HCA (the 0 nearest)"
                    : "only on the " + hcas + " nearest HCA" + (hcas.equals(BigInteger.ONE) ? "" : "s"))
                    + " (ucp_context_select_reg_mds), so the other NICs cannot carry it; " + write));
        }
    }

    /**
     * @param value a {@code ULUNITS} setting as written
     * @return what UCX's {@code ucs_config_sscanf_ulunits} stores: {@link #ULUNITS_AUTO} for
     *         {@code auto} and {@link #ULUNITS_INF} for {@code inf} (any case), else {@code sscanf("%lu")}'s
     *         value ({@link CNumber#asUnsigned64}); empty when it refuses the value (no digit)
     */
    private static Optional<BigInteger> ulunits(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.equals("auto") || v.equals("inf")) {
            return Optional.of(v.equals("auto") ? ULUNITS_AUTO : ULUNITS_INF);
        }
        CNumber n = CNumber.read(value, 10);
        return n.none() ? Optional.empty() : Optional.of(n.asUnsigned64());
    }

    /** @return an unsigned long as UCX's {@code ULUNITS} names it: {@code inf}, {@code auto} or the number */
    private static String named(BigInteger value) {
        return value.equals(ULUNITS_INF) ? "inf" : value.equals(ULUNITS_AUTO) ? "auto" : value.toString();
    }

    /** {@code UCX_IB_GID_INDEX} ({@code src/uct/ib/base/ib_md.c}, {@code GID_INDEX}, type {@code ULUNITS}: {@code auto}, {@code inf} or {@code %lu}). */
    private static void gidIndex(NodeNics node, String value, List<Finding> out) {
        if (value.toLowerCase(Locale.ROOT).equals("auto")) {
            return;
        }
        CNumber n = CNumber.read(value, 10);
        if (value.equalsIgnoreCase("inf") || n.none() || n.value().get().signum() < 0) {
            out.add(error(Code.BAD_SETTING, "UCX_IB_GID_INDEX " + quoted(value) + " is not a GID index UCX reads (auto or a number;"
                    + " uct_ib_md_config_table): " + (n.none() && !value.equalsIgnoreCase("inf") ? "UCX refuses its configuration and"
                    + " does not start" : "no port has that GID") + "; write auto or the RoCE v2 IPv4 GID index (railmap env --for ucx)"));
            return;
        }
        ListedPorts.gidIndex(node, "UCX_IB_GID_INDEX", n.asLong(), "UCX (uct_ib_md_config_table, src/uct/ib/base/ib_md.c)", out);
    }
}
