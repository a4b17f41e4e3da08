package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * UCX ({@code ucx}): stripe over every compute NIC of a node. Read from openucx/ucx (master of
 * August 2026):
 * <ul>
 * <li>{@code UCX_NET_DEVICES} = every compute NIC as {@code hca:port}, comma-separated
 *     ({@code mlx5_0:1,mlx5_1:1}). {@code src/ucp/core/ucp_context.c}, {@code ucp_config_table}
 *     entry {@code NET_DEVICES} (default {@code all}), of type {@code ALLOW_LIST_WITH_RANGES}:
 *     {@code src/ucs/config/parser.c}, {@code ucs_config_sscanf_allow_list_impl} negates a list
 *     starting with {@code ^}, splits on {@code ,} ({@code ucs_config_sscanf_array_impl}) and expands
 *     {@code name[a-b]} ranges ({@code ucs_config_array_expand_range}); {@code ucp_context.c},
 *     {@code ucp_is_resource_in_device_list} matches each entry against the device ({@code mlx5_0:1})
 *     or its base name ({@code mlx5_0}) and aborts ({@code ucs_assert_always}) on more than 64 entries.
 *     The order is not meaningful.</li>
 * <li>{@code UCX_MAX_RMA_RAILS} and {@code UCX_MAX_RNDV_RAILS} = that count: {@code ucp_context.c},
 *     {@code ucp_context_config_table} entries {@code MAX_RMA_RAILS} (default 1: RMA uses one NIC)
 *     and {@code MAX_RNDV_RAILS} (default 2), unsigned integers into {@code max_rma_lanes} and
 *     {@code max_rndv_lanes}. UCX does not refuse a larger value: {@code src/ucp/wireup/select.c},
 *     {@code ucp_wireup_bw_max_lanes}, bounds an endpoint's lanes by {@code UCP_MAX_LANES}
 *     ({@value #MAX_LANES}, {@code src/ucp/core/ucp_types.h}), or {@code UCP_MAX_LANES_LEGACY}
 *     ({@value #MAX_LANES_LEGACY}) towards a peer whose address is from a release before 1.18.
 *     railmap caps both lists at {@value #MAX_LANES}, with a warning naming the NICs left out, and
 *     says when more than {@value #MAX_LANES_LEGACY} NICs need every peer at 1.18 or newer.</li>
 * <li>{@code UCX_IB_GID_INDEX} = the RoCE v2 IPv4-mapped GID index, when every compute NIC has it at
 *     the same index ({@link #gidIndex}); else not written, and UCX picks per device.</li>
 * </ul>
 */
public final class UcxLibrary implements Library {
    /** {@code UCP_MAX_LANES}: the most lanes (so rails) of an endpoint, and the most UCX_NET_DEVICES entries. */
    public static final int MAX_LANES = 64;
    /** {@code UCP_MAX_LANES_LEGACY}: the most lanes towards a peer older than UCX 1.18. */
    public static final int MAX_LANES_LEGACY = 16;

    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public EnvRules envRules() {
        return UcxEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        List<Finding> findings = new ArrayList<>(node.findings());
        List<ComputeNic> nics = netDevices(node, name(), findings);
        List<Setting> settings = new ArrayList<>();
        if (!nics.isEmpty()) {
            settings.add(netDevices(nics));
            settings.add(rails("UCX_MAX_RMA_RAILS", nics));
            settings.add(rails("UCX_MAX_RNDV_RAILS", nics));
            gidIndex(nics).ifPresent(settings::add);
        }
        return new NodeSettings(name(), node.node(), settings, findings);
    }

    /**
     * @param node     the node
     * @param library  the library writing UCX's variables ({@code ucx}, {@code nixl}, {@code mx})
     * @param findings receives what {@link NicLists#listable} finds, and an info when the NICs exceed
     *                 {@value #MAX_LANES_LEGACY}
     * @return the NICs UCX_NET_DEVICES lists: at most {@value #MAX_LANES}
     */
    static List<ComputeNic> netDevices(NodeNics node, String library, List<Finding> findings) {
        List<ComputeNic> nics = NicLists.listable(node, library, MAX_LANES, "UCP_MAX_LANES in UCX's ucp_types.h", findings);
        if (nics.size() > MAX_LANES_LEGACY) {
            findings.add(new Finding(Code.LIST_LIMIT, Severity.INFO, List.of(), Optional.empty(),
                    node.node() + " stripes UCX over " + nics.size() + " NICs: a peer running UCX before 1.18 uses at most "
                            + MAX_LANES_LEGACY + " lanes (UCP_MAX_LANES_LEGACY); run 1.18 or newer on every node"));
        }
        return nics;
    }

    /** @return {@code UCX_NET_DEVICES} listing the NICs */
    static Setting netDevices(List<ComputeNic> nics) {
        return new Setting("UCX_NET_DEVICES", ComputeNic.hcaPorts(nics));
    }

    /**
     * @return {@code UCX_IB_GID_INDEX}, the RoCE v2 IPv4-mapped GID index every NIC shares (UCX's IB
     *         memory domain option {@code GID_INDEX}, {@code uct_ib_md_config_table} in
     *         {@code src/uct/ib/base/ib_md.c}: one index for every device; default {@code auto}),
     *         when they share one; else nothing, and UCX picks per device
     */
    static Optional<Setting> gidIndex(List<ComputeNic> nics) {
        return ComputeNics.sharedGidIndex(nics).map(i -> new Setting("UCX_IB_GID_INDEX", Integer.toString(i)));
    }

    /**
     * {@code UCX_MAX_HCA_PER_GPU=inf}, for a library that stripes GPU memory over the NICs but sets
     * UCX's option to {@code auto} (NIXL's UCX backend, and ModelExpress's stripe mode through it).
     * openucx/ucx 1.21 and newer, {@code src/ucp/core/ucp_context.c}: {@code MAX_HCA_PER_GPU}
     * (default {@code inf}, type {@code ULUNITS}: {@code ucs_config_sscanf_ulunits} in
     * {@code src/ucs/config/parser.c} takes {@code auto}, {@code inf}, any case, or a number) says on
     * how many HCAs GPU memory is registered; {@code auto} keeps only the HCAs nearest the GPU
     * ({@code ucp_context_select_reg_mds}, applied to CUDA memory by {@code ucp_memh_apply_reg_policy}
     * in {@code src/ucp/core/ucp_mm.c}), so the other rails cannot carry that memory and
     * {@code UCX_MAX_RMA_RAILS} stripes over one NIC. {@code inf} registers it on every HCA of
     * {@code UCX_NET_DEVICES}. UCX before 1.21 does not know the variable and only warns that it is unused.
     *
     * @return the setting, when there are several NICs to stripe over; else empty
     */
    static Optional<Setting> maxHcaPerGpu(List<ComputeNic> nics) {
        return nics.size() > 1 ? Optional.of(new Setting("UCX_MAX_HCA_PER_GPU", "inf")) : Optional.empty();
    }

    /** @return {@code key} = the number of NICs */
    static Setting rails(String key, List<ComputeNic> nics) {
        return new Setting(key, Integer.toString(nics.size()));
    }
}
