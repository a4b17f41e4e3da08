package io.railmap.matrix.library;

import static io.railmap.matrix.library.UcxLibraryTest.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.PortState;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Conformance: ModelExpress's ucx_utils.py reading of its variables, as {@link ModelExpressLibrary} mirrors it. */
class ModelExpressLibraryTest {
    private final ModelExpressLibrary mx = new ModelExpressLibrary();

    /**
     * _resolve_nic_pin on main: the UCX_NET_DEVICES device {@code device} sets, "auto" for the probe,
     * null for no pin (envs.py strips the value first).
     */
    static String mxPin(String value, int device) {
        String raw = value.strip();
        if (raw.isEmpty() || List.of("off", "0", "false", "no").contains(raw.toLowerCase())) {
            return null;
        }
        if (raw.contains(",")) {
            List<String> list = Arrays.stream(raw.split(",", -1)).map(String::strip).filter(n -> !n.isEmpty()).toList();
            return device >= 0 && device < list.size() ? list.get(device) : null;
        }
        return "auto";
    }

    /** What Python's float() reads in a decimal without exponent; the only shape railmap writes. */
    static double pythonFloat(String value) {
        assertThat(value).matches("[0-9]+(\\.[0-9]+)?");
        return Double.parseDouble(value);
    }

    @Test
    void theExplicitListPinsCudaDeviceKToTheKthComputeNicAndLeavesTheRestOnAllComputeNics() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nic("mlx5_2", 2, 400)
                .nic("mlx5_3", 1, 400).nic("mlx5_4", 1, 25).management("mlx5_9", 400).nics();

        NodeSettings s = mx.settings(node);
        Map<String, String> env = env(s);

        assertThat(List.of(0, 1, 2, 3).stream().map(d -> mxPin(env.get("MX_RDMA_NIC_PIN"), d)))
                .containsExactly("mlx5_0:1", "mlx5_1:1", "mlx5_2:2", "mlx5_3:1");
        assertThat(mxPin(env.get("MX_RDMA_NIC_PIN"), 4)).isNull();
        // what device 4 and up keep: every compute NIC, no side or management NIC
        assertThat(env).containsEntry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1,mlx5_2:2,mlx5_3:1").doesNotContainKey("UCX_MAX_RMA_RAILS");
        assertThat(s.findings()).filteredOn(f -> f.code() == Code.SETTING_CAVEAT).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.message()).contains("indexed by CUDA device", "mlx5_0:1 for device 0", "devices 4 and up");
        });
    }

    @Test
    void oneNicIsWrittenWithATrailingCommaSoItIsAListAndNotTheAutoProbe() {
        Map<String, String> env = env(mx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nics()));

        assertThat(env.get("MX_RDMA_NIC_PIN")).isEqualTo("mlx5_0:1,");
        assertThat(mxPin(env.get("MX_RDMA_NIC_PIN"), 0)).isEqualTo("mlx5_0:1");
        assertThat(mxPin("mlx5_0:1", 0)).as("the same NIC without the comma is the probe").isEqualTo("auto");
    }

    @Test
    void theMinRateIsTheFloorUsedAsAFiniteDecimalPythonsFloatReads() {
        StripeNode g = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 100).nic("mlx5_2", 1, 12.5);

        assertThat(pythonFloat(env(mx.settings(g.nics())).get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS"))).isEqualTo(400.0);
        Map<String, String> floored = env(mx.settings(g.nics(new SettingsOptions(Optional.of(12.5), false))));
        assertThat(floored.get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS")).isEqualTo("12.5");
        assertThat(floored.get("MX_RDMA_NIC_PIN")).isEqualTo("mlx5_0:1,mlx5_1:1,mlx5_2:1");
        assertThat(env(mx.settings(g.nics(new SettingsOptions(Optional.of(0.0), false)))).get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS"))
                .isEqualTo("0");
        assertThat(pythonFloat(env(mx.settings(g.nics(new SettingsOptions(Optional.of(1e-7), false))))
                .get("MX_RDMA_NIC_PIN_MIN_RATE_GBPS"))).isEqualTo(1e-7);
    }

    @Test
    void noKnownRateNoMinRate() {
        Map<String, String> env = env(mx.settings(StripeNode.named("g1").nic("mlx5_0", 1, Optional.empty(), PortState.ACTIVE).nics()));

        assertThat(env).containsKey("MX_RDMA_NIC_PIN").doesNotContainKey("MX_RDMA_NIC_PIN_MIN_RATE_GBPS");
    }

    @Test
    void stripeWritesTheModeWithEveryComputeNicInUcxAndTheirCountAsRmaRails() {
        NodeSettings s = mx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nic("mlx5_2", 1, 25)
                .nics(new SettingsOptions(Optional.empty(), true)));

        assertThat(env(s)).containsEntry("MX_RDMA_NIC_PIN", "stripe").containsEntry("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1")
                .containsEntry("UCX_MAX_RMA_RAILS", "2").containsEntry("MX_RDMA_NIC_PIN_MIN_RATE_GBPS", "400")
                // through NIXL's UCX backend, which sets MAX_HCA_PER_GPU=auto (NixlLibraryTest)
                .containsEntry("UCX_MAX_HCA_PER_GPU", "inf");
        assertThat(env(mx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400).nics())))
                .as("the explicit list pins one NIC per device").doesNotContainKey("UCX_MAX_HCA_PER_GPU");
        assertThat(s.findings()).filteredOn(f -> f.code() == Code.SETTING_CAVEAT).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.message()).contains("only on ModelExpress builds with the stripe mode", "auto");
        });
    }

    @Test
    void stripeWarnsOfTheNicsItsProbeWouldTakeOrMiss() {
        // the stripe probe reads port 1 of each HCA at the floor, whatever its state or role
        NodeSettings s = mx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 2, 400).nic("mlx5_bond_0", 1, 400)
                .nic("mlx5_3", 1, Optional.of(400.0), PortState.DOWN).management("mlx5_9", 400)
                .nics(new SettingsOptions(Optional.empty(), true)));

        assertThat(s.findings()).filteredOn(f -> f.severity() == Severity.WARNING).singleElement().extracting(Finding::message)
                .asString().contains("also take mlx5_3:1,mlx5_9:1", "miss mlx5_1:2,mlx5_bond_0:1", "--mx-stripe");
    }
}
