package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NIXL's UCX backend ({@code nixl}): the UCX variables NIXL keeps. Read from ai-dynamo/nixl
 * {@code src/plugins/ucx/} (main of August 2026):
 * <ul>
 * <li>{@code nixlUcxContext::nixlUcxContext} ({@code ucx_utils.cpp}) sets UCX's configuration with
 *     {@code config::modify} ({@code config.cpp}), which does nothing when {@code UCX_<KEY>} is in the
 *     environment: {@code MAX_RMA_RAILS=2}, {@code RNDV_THRESH=inf}, ... So {@code UCX_MAX_RMA_RAILS}
 *     = the number of compute NICs (as {@link UcxLibrary}) is kept, and replaces NIXL's 2.
 *     {@code UCX_MAX_RNDV_RAILS} is not written: with {@code RNDV_THRESH=inf} NIXL's transfers use no
 *     rendezvous.</li>
 * <li>{@code UCX_MAX_HCA_PER_GPU=inf} when there are several compute NICs: on UCX 1.21 and newer the
 *     same constructor sets {@code MAX_HCA_PER_GPU=auto} with {@code config::modify}, which registers
 *     GPU memory only on the HCAs nearest the GPU, so {@code UCX_MAX_RMA_RAILS} could not stripe it over
 *     the other NICs ({@link UcxLibrary#maxHcaPerGpu}); set in the environment, NIXL leaves UCX's
 *     {@code inf} alone.</li>
 * <li>{@code UCX_NET_DEVICES} = every compute NIC as {@code hca:port} (as {@link UcxLibrary}), kept
 *     unless NIXL is handed a device list: {@code nixlUcxEngine::nixlUcxEngine}
 *     ({@code ucx_backend.cpp}) splits the backend parameter {@code device_list} on {@code ", "}, and
 *     the context then sets {@code NET_DEVICES} with {@code config::modifyAlways}, each name followed
 *     by {@code :1}, whatever the environment says. A warning says so, with the {@code device_list}
 *     that names the same NICs when every one is on port 1.</li>
 * </ul>
 */
public final class NixlLibrary implements Library {
    @Override
    public String name() {
        return "nixl";
    }

    @Override
    public EnvRules envRules() {
        return UcxEnvCheck.RULES;
    }

    @Override
    public NodeSettings settings(NodeNics node) {
        List<Finding> findings = new ArrayList<>(node.findings());
        List<ComputeNic> nics = UcxLibrary.netDevices(node, name(), findings);
        List<Setting> settings = new ArrayList<>();
        if (!nics.isEmpty()) {
            settings.add(UcxLibrary.netDevices(nics));
            settings.add(UcxLibrary.rails("UCX_MAX_RMA_RAILS", nics));
            UcxLibrary.maxHcaPerGpu(nics).ifPresent(settings::add);
            UcxLibrary.gidIndex(nics).ifPresent(settings::add);
            findings.add(new Finding(Code.SETTING_CAVEAT, Severity.WARNING, List.of(), Optional.empty(),
                    "NIXL's UCX backend replaces UCX_NET_DEVICES when it is given the backend parameter device_list: "
                            + deviceList(nics)));
        }
        return new NodeSettings(name(), node.node(), settings, findings);
    }

    private static String deviceList(List<ComputeNic> nics) {
        List<String> notPortOne = nics.stream().filter(n -> n.port().rdmaPort() != 1).map(ComputeNic::hcaPort).toList();
        if (!notPortOne.isEmpty()) {
            return "leave it unset, as it cannot name " + String.join(",", notPortOne) + " (NIXL appends :1 to each name)";
        }
        return "leave it unset, or give \"" + String.join(", ", nics.stream().map(ComputeNic::hca).toList()) + "\"";
    }
}
