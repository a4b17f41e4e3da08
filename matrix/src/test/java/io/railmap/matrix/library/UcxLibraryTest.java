package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.PortState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Conformance: each rule of openucx/ucx that {@link UcxLibrary} mirrors. */
class UcxLibraryTest {
    private final UcxLibrary ucx = new UcxLibrary();

    static Map<String, String> env(NodeSettings s) {
        Map<String, String> env = new LinkedHashMap<>();
        s.settings().forEach(x -> env.put(x.key(), x.value()));
        return env;
    }

    /**
     * UCX's reading of an allow list (parser.c, ucs_config_sscanf_allow_list_impl and
     * ucs_config_array_expand_range): a leading ^ negates, "all" allows all, entries split on ','
     * (empty ones dropped), {@code p[a-b]s} expands. Returns the allowed names, or null for "all" or
     * a negated list (which a correct value is never).
     */
    static List<String> ucxAllowList(String value) {
        if (value.startsWith("^")) {
            return null;
        }
        List<String> names = new ArrayList<>();
        Pattern range = Pattern.compile("^([^\\]\\[]*)\\[([0-9]+)-([0-9]+)\\]([^\\]\\[]*)$");
        for (String token : value.split(",")) {
            if (token.isEmpty()) {
                continue;
            }
            Matcher m = range.matcher(token);
            if (m.matches() && Long.parseLong(m.group(2)) <= Long.parseLong(m.group(3))) {
                for (long j = Long.parseLong(m.group(2)); j <= Long.parseLong(m.group(3)); j++) {
                    names.add(m.group(1) + j + m.group(4));
                }
            } else {
                names.add(token);
            }
        }
        return !names.isEmpty() && names.get(0).equals("all") ? null : names;
    }

    @Test
    void netDevicesListsEveryComputeNicAsHcaPortCommaSeparatedAndNoSideOrManagementNic() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_10", 1, 400).nic("mlx5_2", 1, 400).nic("mlx5_3", 2, 400)
                .nic("mlx5_4", 1, 25).management("mlx5_9", 400).nics();

        Map<String, String> env = env(ucx.settings(node));

        // natural HCA order; the order is not meaningful to UCX, but the output is stable
        assertThat(env.get("UCX_NET_DEVICES")).isEqualTo("mlx5_2:1,mlx5_3:2,mlx5_10:1");
        assertThat(ucxAllowList(env.get("UCX_NET_DEVICES"))).containsExactly("mlx5_2:1", "mlx5_3:2", "mlx5_10:1");
        assertThat(env).containsOnlyKeys("UCX_NET_DEVICES", "UCX_MAX_RMA_RAILS", "UCX_MAX_RNDV_RAILS");
    }

    @Test
    void railsEqualTheNicCountEvenBelowUcxsDefaultOfTwoRendezvousRails() {
        Map<String, String> four = env(ucx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_1", 1, 400)
                .nic("mlx5_2", 1, 400).nic("mlx5_3", 1, 400).nics()));
        Map<String, String> one = env(ucx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400).nics()));

        assertThat(four).containsEntry("UCX_MAX_RMA_RAILS", "4").containsEntry("UCX_MAX_RNDV_RAILS", "4");
        assertThat(one).containsEntry("UCX_MAX_RMA_RAILS", "1").containsEntry("UCX_MAX_RNDV_RAILS", "1");
    }

    @Test
    void overUcpMaxLanesTheListAndRailsStopAt64AndTheRestAreNamed() {
        StripeNode g = StripeNode.named("g1");
        for (int k = 0; k < 70; k++) {
            g.nic("mlx5_" + k, 1, 400);
        }

        NodeSettings s = ucx.settings(g.nics());

        assertThat(ucxAllowList(env(s).get("UCX_NET_DEVICES"))).hasSize(UcxLibrary.MAX_LANES).contains("mlx5_63:1")
                .doesNotContain("mlx5_64:1");
        assertThat(env(s)).containsEntry("UCX_MAX_RMA_RAILS", "64").containsEntry("UCX_MAX_RNDV_RAILS", "64");
        assertThat(s.findings()).filteredOn(f -> f.severity() == Severity.WARNING).singleElement()
                .extracting(Finding::message).asString()
                .contains("70 compute NICs", "at most 64", "UCP_MAX_LANES", "mlx5_64:1,mlx5_65:1,mlx5_66:1,mlx5_67:1,mlx5_68:1,mlx5_69:1");
    }

    @Test
    void moreThanSixteenNicsNeedEveryPeerAtUcx118OrNewerAndSixteenDoNot() {
        StripeNode sixteen = StripeNode.named("g1");
        for (int k = 0; k < 16; k++) {
            sixteen.nic("mlx5_" + k, 1, 400);
        }
        assertThat(ucx.settings(sixteen.nics()).findings()).isEmpty();

        NodeSettings seventeen = ucx.settings(sixteen.nic("mlx5_16", 1, 400).nics());
        assertThat(seventeen.findings()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.message()).contains("17 NICs", "before 1.18", "at most 16");
        });
        assertThat(env(seventeen)).containsEntry("UCX_MAX_RMA_RAILS", "17");
    }

    @Test
    void aNameUcxWouldMisreadIsLeftOutWithAnErrorNamingIt() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_0", 1, 400).nic("mlx5_[1-3]", 1, 400).nic("^mlx5_4", 1, 400)
                .nic("mlx5_5,mlx5_6", 1, 400).nics();

        NodeSettings s = ucx.settings(node);

        assertThat(env(s)).containsEntry("UCX_NET_DEVICES", "mlx5_0:1").containsEntry("UCX_MAX_RMA_RAILS", "1");
        assertThat(s.findings()).hasSize(3).allSatisfy(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.code()).isEqualTo(Code.UNLISTABLE_NAME);
        });
        assertThat(s.findings()).extracting(Finding::message).anySatisfy(m -> assertThat(m).contains("g1:eth1", "mlx5_[1-3]", "ucx"));
    }

    /**
     * UCX_IB_GID_INDEX is one value for every IB device: openucx/ucx src/uct/ib/base/ib_md.c,
     * uct_ib_md_config_table entry GID_INDEX (default auto, UCS_CONFIG_TYPE_ULUNITS) into
     * ext.gid_index, the same for each device opened. So it is written only when every compute NIC has
     * its RoCE v2 IPv4-mapped GID at the same index; otherwise UCX's auto choice per device stays.
     */
    @Test
    void gidIndexIsWrittenOnlyWhenEveryComputeNicSharesOne() {
        NodeSettings shared = ucx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400, 3).nic("mlx5_1", 1, 400, 3).nics());
        NodeSettings differ = ucx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400, 3).nic("mlx5_1", 1, 400, 1).nics());
        NodeSettings unknown = ucx.settings(StripeNode.named("g1").nic("mlx5_0", 1, 400, 3).nic("mlx5_1", 1, 400).nics());

        assertThat(env(shared)).containsEntry("UCX_IB_GID_INDEX", "3");
        assertThat(env(differ)).doesNotContainKey("UCX_IB_GID_INDEX");
        assertThat(env(unknown)).doesNotContainKey("UCX_IB_GID_INDEX");
        // NIXL keeps UCX's variables it does not set itself: the same rule
        assertThat(env(new NixlLibrary().settings(StripeNode.named("g1").nic("mlx5_0", 1, 400, 3).nics())))
                .containsEntry("UCX_IB_GID_INDEX", "3");
    }

    @Test
    void aNodeWithoutComputeNicGetsNoSettingAndTheError() {
        NodeNics node = StripeNode.named("g1").nic("mlx5_0", 1, Optional.of(400.0), PortState.DOWN).management("mlx5_9", 25).nics();

        NodeSettings s = ucx.settings(node);

        // an empty UCX_NET_DEVICES would allow no device at all
        assertThat(s.settings()).isEmpty();
        assertThat(s.findings()).extracting(Finding::code).contains(Code.NO_RDMA_DEVICE);
    }
}
