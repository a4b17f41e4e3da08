package io.railmap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** MlxRingBench's command line, its shapes and its railmap side (MLX's side needs the pinned runtime: run the bench). */
class MlxRingBenchTest {

    @Test
    void helpPrintsEveryOptionAndExitsZero() {
        BenchCall call = BenchCall.parse(new MlxRingBench.Arguments(), "--help");

        assertThat(call.exit()).hasValue(0);
        assertThat(call.out()).contains("Usage: MlxRingBench", "--budget-s", "--seed", "--shape", "N...", "default: 600", "Exit codes");
    }

    @Test
    void noArgumentsKeepTheDefaultsAndGivenOnesReplaceThem() {
        MlxRingBench.Arguments defaults = new MlxRingBench.Arguments();
        assertThat(BenchCall.parse(defaults).exit()).isEmpty();
        assertThat(defaults.sizes).containsExactly(8, 10, 11, 12);
        assertThat(defaults.shapes).containsExactly("random", "thin-first");
        assertThat(defaults.budgetS).isEqualTo(MlxRingBench.BUDGET_S);

        MlxRingBench.Arguments given = new MlxRingBench.Arguments();
        assertThat(BenchCall.parse(given, "--budget-s", "60", "--shape", "thin-first", "--seed", "7", "12").exit()).isEmpty();
        assertThat(given.sizes).containsExactly(12);
        assertThat(given.shapes).containsExactly("thin-first");
        assertThat(given.budgetS).isEqualTo(60);
        assertThat(given.seed).isEqualTo(7);
    }

    @Test
    void badValuesAreNamedWithExitOne() {
        BenchCall shape = BenchCall.parse(new MlxRingBench.Arguments(), "--shape", "ring", "8");
        assertThat(shape.exit()).hasValue(1);
        assertThat(shape.err()).startsWith("MlxRingBench: ").contains("'--shape': ring is not a shape; give one of random, thin-first");
        assertThat(BenchCall.parse(new MlxRingBench.Arguments(), "--budget-s", "0").err()).contains("option '--budget-s': 0 is less than 1");
        assertThat(BenchCall.parse(new MlxRingBench.Arguments(), "2").err()).contains("N: 2 is less than 3");
        assertThat(BenchCall.parse(new MlxRingBench.Arguments(), "25").err()).contains("N: 25 is more than 24");
    }

    @RepeatedTest(20)
    void theRandomMeshIsSymmetricOneToThreeCablesAndFixedBySeed(org.junit.jupiter.api.RepetitionInfo repetition) {
        long seed = repetition.getCurrentRepetition();
        int[][] cables = Shapes.randomMesh(9, seed);
        for (int a = 0; a < 9; a++) {
            assertThat(cables[a][a]).isZero();
            for (int b = 0; b < 9; b++) {
                if (a != b) {
                    assertThat(cables[a][b]).isBetween(1, 3).isEqualTo(cables[b][a]);
                }
            }
        }
        assertThat(Shapes.randomMesh(9, seed)).isDeepEqualTo(cables);
    }

    @Test
    void onTheThinFirstShapeMlxsFirstRingHasOneCableAndRailmapsThree() {
        for (int n : List.of(5, 8, 12)) {
            int[][] cables = Shapes.thinFirstRing(n);
            List<Integer> inIndexOrder = IntStream.range(0, n).boxed().toList();
            assertThat(MlxRingBench.thinnest(cables, inIndexOrder)).as("%d nodes: the ring 0..n-1", n).isEqualTo(1);
            assertThat(MlxRingBench.railmap(cables).thinnest()).as("%d nodes: railmap's ring", n).isEqualTo(3);
        }
    }

    @Test
    void thinnestClosesTheRing() {
        int[][] cables = {{0, 3, 1}, {3, 0, 2}, {1, 2, 0}};
        assertThat(MlxRingBench.thinnest(cables, List.of(0, 1, 2))).isEqualTo(1);
        int[][] wide = {{0, 3, 3}, {3, 0, 2}, {3, 2, 0}};
        assertThat(MlxRingBench.thinnest(wide, List.of(0, 1, 2))).isEqualTo(2);
    }
}
