package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Several libraries in one file: a variable is written once, and two values for one variable are an error. */
class NodeEnvTest {
    private static Topology studios() throws Exception {
        return Topology.of(SnapshotCodec.readSnapshot("four studios",
                Files.readString(Path.of("../examples/snapshots/four-studios-ring-ips.json"))));
    }

    private static long lines(String text, String key) {
        return text.lines().filter(l -> l.startsWith(key + "=")).count();
    }

    /** Each library declares the options it reads; one chosen without a library that reads it is refused, by the caller's name. */
    @Test
    void anOptionNoChosenLibraryReadsIsRefusedNamingItsReaders() {
        SettingsOptions stripe = new SettingsOptions(Optional.empty(), true);
        assertThat(Libraries.ALL.stream().filter(l -> l.options().contains(LibraryOption.MX_STRIPE)).map(Library::name)).containsExactly("mx");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> NodeEnv.requireRead(NodeEnv.libraries("nccl,ucx"), stripe, LibraryOption::param))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mxStripe is read by mx only, and the library list (nccl,ucx) does not name it: add mx to the list or leave mxStripe out");
        NodeEnv.requireRead(NodeEnv.libraries("nccl,mx"), stripe, LibraryOption::flag);
        NodeEnv.requireRead(NodeEnv.libraries("nccl"), SettingsOptions.DEFAULTS, LibraryOption::flag);
    }

    @Test
    void aVariableTwoLibrariesSetAlikeIsWrittenOnce() throws Exception {
        Topology topology = studios();
        String node = topology.nodes().get(0);
        NodeEnv env = NodeEnv.of(topology, node, NodeEnv.libraries("ucx,nixl,mx"), SettingsOptions.DEFAULTS);

        assertThat(lines(env.text(), "UCX_NET_DEVICES")).isEqualTo(1);
        assertThat(lines(env.text(), "RAILMAP_TOPOLOGY")).isLessThanOrEqualTo(1);
        assertThat(env.libraries()).flatExtracting(NodeSettings::findings).noneMatch(f -> f.code() == Code.SETTING_CONFLICT);
    }

    @Test
    void jacclsAndTheRingsRankDifferOnSomeNodeAndOnlyTheFirstIsWrittenWithAnError() throws Exception {
        Topology topology = Topology.of(io.railmap.matrix.Cluster.meshWithAnAddressedRing());
        int conflicts = 0;
        for (String node : topology.nodes()) {
            Map<String, String> jaccl = vars(new JacclLibrary().settings(nics(topology, node)));
            Map<String, String> ring = vars(new MlxRingLibrary().settings(nics(topology, node)));
            NodeEnv env = NodeEnv.of(topology, node, NodeEnv.libraries("jaccl,mlx-ring"), SettingsOptions.DEFAULTS);
            assertThat(lines(env.text(), "MLX_RANK")).as(node).isEqualTo(1);
            assertThat(env.text()).as(node).contains("MLX_RANK=" + jaccl.get("MLX_RANK") + "\n");
            boolean differ = !jaccl.get("MLX_RANK").equals(ring.get("MLX_RANK"));
            assertThat(env.hasErrors()).as(node).isEqualTo(differ);
            if (differ) {
                conflicts++;
                assertThat(env.libraries().get(1).findings()).filteredOn(f -> f.code() == Code.SETTING_CONFLICT).singleElement()
                        .satisfies(f -> assertThat(f.message()).startsWith("mlx-ring sets MLX_RANK=" + ring.get("MLX_RANK")
                                + ", but jaccl sets MLX_RANK=" + jaccl.get("MLX_RANK") + " above"));
            }
        }
        assertThat(conflicts).as("a node whose jaccl rank (sorted order) is not its ring rank").isPositive();
    }

    private static NodeNics nics(Topology topology, String node) {
        return ComputeNics.of(topology, io.railmap.matrix.fabric.RailTable.of(topology), node, SettingsOptions.DEFAULTS);
    }

    private static Map<String, String> vars(NodeSettings s) {
        return s.settings().stream().collect(Collectors.toMap(Setting::key, Setting::value));
    }
}
