package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code railmap env --for jaccl,mlx-ring} on the example ring of four Mac Studios. */
class EnvMlxTest {
    private static final String RING = "../examples/snapshots/four-studios-ring-ips.json";
    private static final String NO_ADDRESSES = "../examples/snapshots/four-studios-ring.json";
    private static final List<String> NODES = List.of("studio-a", "studio-b", "studio-c", "studio-d");

    @Test
    void jacclGivesEachNodeExactlyTheLinesRailmapMatrixWritesForItsRank() {
        for (int rank = 0; rank < NODES.size(); rank++) {
            Run env = Run.of("env", "--node", NODES.get(rank), "--for", "jaccl", "--snapshot", RING);
            Run matrix = Run.of("matrix", "--snapshot", RING, "--format", "env", "--rank", String.valueOf(rank));

            assertThat(env.code()).as(env.err()).isZero();
            assertThat(matrix.code()).as(matrix.err()).isZero();
            assertThat(env.out().lines().toList()).as(NODES.get(rank))
                    .containsExactlyElementsOf(java.util.stream.Stream.concat(java.util.stream.Stream.of("# jaccl"), matrix.out().lines()).toList());
            assertThat(env.out()).contains("MLX_RANK=" + rank, "MLX_JACCL_RING=1", "MLX_JACCL_COORDINATOR=10.0.0.11:32323");
        }
    }

    @Test
    void mlxRingGivesEachNodeItsPlaceInTheCableRingAndTheHostfilePath() {
        for (int rank = 0; rank < NODES.size(); rank++) {
            Run env = Run.of("env", "--node", NODES.get(rank), "--for", "mlx-ring", "--snapshot", RING);

            assertThat(env.code()).as(env.err()).isZero();
            assertThat(env.out().lines().toList()).as(NODES.get(rank)).startsWith("# mlx-ring")
                    .contains("MLX_HOSTFILE=/etc/railmap/ring-hosts.json", "MLX_RANK=" + rank)
                    .noneMatch(l -> l.startsWith("MLX_RING_VERBOSE") || l.startsWith("# error") || l.startsWith("# warning"));
        }
    }

    @Test
    void withoutCableAddressesTheRingIsAnErrorNamingWhyAndExitsTwo() {
        Run env = Run.of("env", "--node", "studio-b", "--for", "mlx-ring", "--snapshot", NO_ADDRESSES);

        assertThat(env.code()).as(env.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(env.out()).contains("# error ring-not-a-cycle no TCP ring", "IPv4").doesNotContain("MLX_RANK");
    }
}
