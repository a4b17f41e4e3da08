package io.railmap.matrix.library.check;

import static io.railmap.matrix.library.check.ListedPorts.error;
import static io.railmap.matrix.library.check.ListedPorts.quoted;
import static io.railmap.matrix.library.check.ListedPorts.warning;

import io.railmap.matrix.check.Code;
import io.railmap.matrix.check.Finding;
import io.railmap.matrix.library.ComputeNic;
import io.railmap.matrix.library.NodeNics;
import io.railmap.matrix.library.UcxLibrary;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.Port;
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
    static final List<String> VARIABLES = List.of("UCX_NET_DEVICES", "UCX_MAX_RMA_RAILS", "UCX_MAX_RNDV_RAILS", "UCX_IB_GID_INDEX");
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
                    + ListedPorts.hcaPorts(List.copyOf(striped)) + "): " + (variable.contains("RMA") ? "RMA" : "rendezvous")
                    + " stripes over " + rails + " of them; write " + striped.size() + " (railmap env --for ucx)"));
        }
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
