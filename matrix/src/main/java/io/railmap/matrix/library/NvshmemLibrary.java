package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NVSHMEM ({@code nvshmem}): which NICs its network transports use. Read from NVIDIA/nvshmem
 * (devel of October 2025, version 3.5.1):
 * <ul>
 * <li>{@code NVSHMEM_HCA_LIST} = every compute NIC as {@code hca:port}, comma-separated. Declared in
 *     {@code src/modules/transport/common/env_defs.h} (string, default empty); read by
 *     {@code nvshmemt_init} of the IB transports ({@code src/modules/transport/ibrc/ibrc.cpp},
 *     {@code ibgda/ibgda.cpp}, {@code ibdevx/ibdevx.cpp}), parsed by {@code nvshmemt_parse_hca_list}
 *     ({@code common/transport_common.cpp}): a leading {@code ^} excludes the entries, entries are
 *     {@code name[:port[:count]]} split on {@code ,}, a name is copied into 64 bytes unchecked, at most
 *     {@code MAX_NUM_HCAS} ({@value #MAX_HCAS}) entries are read; a device port is used when its name
 *     equals an entry's and the entry has no port or the same one. Those transports filter on it
 *     whatever {@code NVSHMEM_ENABLE_NIC_PE_MAPPING} says (though {@code env_defs.h} says that must
 *     be 1). The list is capped at {@value #MAX_HCAS}, with a warning.</li>
 * <li>{@code NVSHMEM_ENABLE_NIC_PE_MAPPING} is not written: left at 0, each PE takes the listed NICs
 *     nearest its GPU ({@code nvshmemi_setup_connections}, {@code src/host/transport/transport.cpp},
 *     {@code nvshmemi_get_devices_by_distance}); 1 would replace that with round robin on the PE's
 *     index on the node.</li>
 * <li>{@code NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE} = the number of compute NICs, at most
 *     {@value #LIBFABRIC_MAX_NIC_PER_PE}: the libfabric transport's multi-rail limit (3.7). Not in the
 *     3.5.1 source; found in pull request 19 ("transport/libfabric: Implement multi-rail"):
 *     {@code env_defs.h} (int, default 16), {@code nvshmemt_libfabric_connect_endpoints}
 *     ({@code src/modules/transport/libfabric/libfabric.cpp}) uses the smaller of it and the devices
 *     selected, and never more than {@code NVSHMEMT_LIBFABRIC_MAX_NIC_PER_PE} (16). The libfabric
 *     transport does not read {@code NVSHMEM_HCA_LIST}. An info says when the NICs exceed 16.</li>
 * </ul>
 * NVSHMEM's UCX transport ({@code NVSHMEM_REMOTE_TRANSPORT=ucx}) reads UCX's own variables: see
 * {@link UcxLibrary}.
 */
public final class NvshmemLibrary implements Library {
    /** {@code MAX_NUM_HCAS}: the most entries NVSHMEM reads from NVSHMEM_HCA_LIST. */
    public static final int MAX_HCAS = 48;
    /** {@code NVSHMEMT_LIBFABRIC_MAX_NIC_PER_PE}: the most NICs a PE stripes over with libfabric. */
    public static final int LIBFABRIC_MAX_NIC_PER_PE = 16;

    @Override
    public String name() {
        return "nvshmem";
    }

    @Override
    public EnvRules envRules() {
        return NvshmemEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        List<Finding> findings = new ArrayList<>(node.findings());
        List<ComputeNic> nics = NicLists.listable(node, name(), MAX_HCAS, "MAX_NUM_HCAS in NVSHMEM's IB transports", findings);
        List<Setting> settings = new ArrayList<>();
        if (!nics.isEmpty()) {
            settings.add(new Setting("NVSHMEM_HCA_LIST", ComputeNic.hcaPorts(nics)));
            settings.add(new Setting("NVSHMEM_LIBFABRIC_MAX_NIC_PER_PE", Integer.toString(Math.min(nics.size(), LIBFABRIC_MAX_NIC_PER_PE))));
            if (nics.size() > LIBFABRIC_MAX_NIC_PER_PE) {
                findings.add(new Finding(Code.LIST_LIMIT, Severity.INFO, List.of(), Optional.empty(),
                        node.node() + " has " + nics.size() + " compute NICs; NVSHMEM's libfabric transport stripes a PE over at most "
                                + LIBFABRIC_MAX_NIC_PER_PE + " (NVSHMEMT_LIBFABRIC_MAX_NIC_PER_PE)"));
            }
        }
        return new NodeSettings(name(), node.node(), settings, findings);
    }
}
