package io.railmap.matrix.library;

import static io.railmap.matrix.library.ListedPorts.error;
import static io.railmap.matrix.library.ListedPorts.quoted;
import static io.railmap.matrix.library.ListedPorts.warning;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Port;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** NVSHMEM's variables railmap writes ({@link NvshmemLibrary}), read as NVIDIA/nvshmem reads them. */
final class NvshmemEnvCheck {
    static final List<String> VARIABLES = List.of("NVSHMEM_HCA_LIST", "NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE");
    /** The rules the libraries that read these variables name. */
    static final EnvRules RULES = new EnvRules(VARIABLES, NvshmemEnvCheck::check);

    private NvshmemEnvCheck() {
    }

    static void check(NodeNics node, Map<String, String> vars, List<Finding> out) {
        Optional.ofNullable(vars.get("NVSHMEM_HCA_LIST")).ifPresent(v -> hcaList(node, v, out));
        Optional.ofNullable(vars.get("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE")).ifPresent(v -> nicPerPe(node, v, out));
    }

    /**
     * {@code NVSHMEM_HCA_LIST} ({@code nvshmemt_parse_hca_list}): {@code ^} excludes (not checked),
     * entries {@code name[:port[:count]]}, exact names; at most 48 entries read ({@code MAX_NUM_HCAS}).
     */
    private static void hcaList(NodeNics node, String value, List<Finding> out) {
        if (value.startsWith("^")) {
            return;
        }
        List<String> entries = ListedPorts.entries(value);
        ListedPorts.limit(node, "NVSHMEM_HCA_LIST", entries, NvshmemLibrary.MAX_HCAS, "MAX_NUM_HCAS", out);
        for (String entry : entries.subList(0, Math.min(entries.size(), NvshmemLibrary.MAX_HCAS))) {
            String[] f = entry.split(":", -1);
            if (!ListedPorts.numbers("NVSHMEM_HCA_LIST", entry, f, 2, out)) {
                continue;
            }
            Optional<Integer> port = ListedPorts.field(f, 1);
            List<Port> ports = ListedPorts.ports(node).stream()
                    .filter(p -> p.rdma().isPresent() && p.rdma().get().equals(f[0]) && port.map(n -> n == p.rdmaPort()).orElse(true)).toList();
            ListedPorts.listed(node, "NVSHMEM_HCA_LIST", entry, ports, out);
        }
    }

    /**
     * {@code NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE} (pull request 19, {@code env_defs.h}, int read by
     * {@code nvshmemi_errchk_atol}: {@code strtol(s, &e, 0)}, 0 without a digit): the libfabric
     * transport ({@code nvshmemt_libfabric_connect_endpoints}) stripes a PE over the smaller of it and
     * the devices it selected, capped at {@code NVSHMEMT_LIBFABRIC_MAX_NIC_PER_PE} (16) with a warning.
     * It selects its own devices (it does not read {@code NVSHMEM_HCA_LIST}).
     */
    private static void nicPerPe(NodeNics node, String value, List<Finding> out) {
        CNumber n = CNumber.read(value, 0);
        int read = (int) n.asLong();
        int nics = node.nics().size();
        String named = "NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE " + quoted(value);
        String write = "write " + Math.min(nics, NvshmemLibrary.LIBFABRIC_MAX_NIC_PER_PE) + " (railmap env --for nvshmem)";
        if (n.none() || read <= 0) {
            out.add(error(Code.BAD_SETTING, named + (n.none() ? " is not a number: NVSHMEM reads it (strtol) as 0" : " is " + read)
                    + ", so the libfabric transport stripes a PE over no NIC; " + write));
        } else if (read > NvshmemLibrary.LIBFABRIC_MAX_NIC_PER_PE) {
            out.add(warning(Code.LIST_LIMIT, named + " is above the libfabric transport's " + NvshmemLibrary.LIBFABRIC_MAX_NIC_PER_PE
                    + " (NVSHMEMT_LIBFABRIC_MAX_NIC_PER_PE): it uses at most " + NvshmemLibrary.LIBFABRIC_MAX_NIC_PER_PE + "; " + write));
        } else if (read > nics) {
            out.add(warning(Code.SIDE_NIC_IN_LIST, named + " is above " + node.node() + "'s " + nics + " compute NICs, and the libfabric"
                    + " transport picks its own devices (not NVSHMEM_HCA_LIST): a PE may stripe over a slower side or management NIC;"
                    + " " + write));
        }
    }
}
