package io.railmap.matrix.library;

import static io.railmap.matrix.library.UcxLibraryTest.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conformance: what NIXL's UCX backend does with UCX's variables, as {@link NixlLibrary} mirrors it. */
class NixlLibraryTest {
    private final NixlLibrary nixl = new NixlLibrary();

    /** NIXL's reading of device_list (nixlUcxEngine: absl::StrSplit on ", ") into NET_DEVICES (nixlUcxContext: each + ":1"). */
    static String nixlNetDevices(String deviceList) {
        return String.join(",", Arrays.stream(deviceList.split(", ", -1)).map(d -> d + ":1").toList());
    }

    @Test
    void keepsUcxNetDevicesAndRaisesMaxRmaRailsOverNixlsTwoButWritesNoRendezvousRails() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nic("mlx5_2", 1, 400)
                .nic("mlx5_5", 1, 100).management("mlx5_9", 400).nics();

        Map<String, String> env = env(nixl.settings(node));

        // config::modify leaves UCX_MAX_RMA_RAILS alone when it is set, so 3 replaces NIXL's 2
        assertThat(env).containsExactly(entry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1,mlx5_2:1"), entry("UCX_MAX_RMA_RAILS", "3"),
                entry("UCX_MAX_HCA_PER_GPU", "inf"));
        assertThat(env).doesNotContainKey("UCX_MAX_RNDV_RAILS");
    }

    /**
     * ai-dynamo/nixl src/plugins/ucx/ucx_utils.cpp, nixlUcxContext::nixlUcxContext: on UCX 1.21 and newer,
     * config.modify("MAX_HCA_PER_GPU", "auto"), skipped when UCX_MAX_HCA_PER_GPU is in the environment
     * (config.cpp, config::modify). openucx/ucx src/ucp/core/ucp_context.c: MAX_HCA_PER_GPU, default inf,
     * ULUNITS; ucp_context_select_reg_mds with auto keeps only the HCAs nearest the GPU for CUDA memory
     * (ucp_memh_apply_reg_policy, ucp_mm.c), so UCX_MAX_RMA_RAILS could not stripe GPU memory. railmap writes
     * UCX's own default back, in the spelling ucs_config_sscanf_ulunits (src/ucs/config/parser.c) takes.
     */
    @Test
    void liftsNixlsNearestHcaRegistrationOfGpuMemorySoEveryRailCarriesIt() {
        Map<String, String> two = env(nixl.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nics()));
        assertThat(two).containsEntry("UCX_MAX_HCA_PER_GPU", "inf");
        // ucs_config_sscanf_ulunits: "auto" and "inf" by strcasecmp, else a number
        assertThat(two.get("UCX_MAX_HCA_PER_GPU")).matches("(?i)inf|auto|[0-9]+");

        // one NIC: nothing to stripe over
        Map<String, String> one = env(nixl.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nics()));
        assertThat(one).doesNotContainKey("UCX_MAX_HCA_PER_GPU");
    }

    @Test
    void warnsThatDeviceListReplacesUcxNetDevicesAndGivesTheDeviceListNixlReadsAsTheSameNics() {
        NodeSettings s = nixl.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nics());

        Finding warning = s.findings().stream().filter(f -> f.code() == Code.SETTING_CAVEAT).findFirst().orElseThrow();
        assertThat(warning.severity()).isEqualTo(Severity.WARNING);
        assertThat(warning.message()).contains("UCX_NET_DEVICES", "device_list");
        String deviceList = warning.message().replaceAll(".*give \"([^\"]*)\".*", "$1");
        assertThat(nixlNetDevices(deviceList)).isEqualTo(env(s).get("UCX_NET_DEVICES"));
    }

    @Test
    void aNicOnPortTwoCannotBeNamedInDeviceList() {
        NodeSettings s = nixl.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_0", 2, 400).nics());

        assertThat(env(s)).containsEntry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_0:2");
        assertThat(s.findings()).extracting(Finding::message)
                .anySatisfy(m -> assertThat(m).contains("cannot name mlx5_0:2", "appends :1").doesNotContain("give \""));
    }

    @Test
    void noComputeNicNoSettingAndNoDeviceListWarning() {
        NodeSettings s = nixl.settings(StripeNode.named("g1").management("mlx5_9", 400).nics());

        assertThat(s.settings()).isEmpty();
        assertThat(s.findings()).extracting(Finding::code).isEqualTo(List.of(Code.NO_RDMA_DEVICE));
    }
}
