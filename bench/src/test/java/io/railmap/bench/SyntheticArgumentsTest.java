package io.railmap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The command lines of {@link SyntheticCluster} and {@link SyntheticFabric}. */
class SyntheticArgumentsTest {

    @Test
    void helpPrintsTheParametersAndExitsZero() {
        BenchCall cluster = BenchCall.parse(new SyntheticCluster.Arguments(), "--help");
        BenchCall fabric = BenchCall.parse(new SyntheticFabric.Arguments(), "--help");

        assertThat(cluster.exit()).hasValue(0);
        assertThat(cluster.out()).contains("Usage: SyntheticCluster", "N", "FILE", "in-order|scrambled");
        assertThat(fabric.exit()).hasValue(0);
        assertThat(fabric.out()).contains("Usage: SyntheticFabric", "N", "NICS", "FILE");
    }

    @Test
    void theReadmeLinesLand() {
        SyntheticCluster.Arguments cluster = new SyntheticCluster.Arguments();
        SyntheticFabric.Arguments fabric = new SyntheticFabric.Arguments();

        assertThat(BenchCall.parse(cluster, "2000", "/tmp/s2000.json", "in-order").exit()).isEmpty();
        assertThat(BenchCall.parse(fabric, "2000", "8", "/tmp/f2000.json").exit()).isEmpty();

        assertThat(cluster.size).isEqualTo(2000);
        assertThat(cluster.file).isEqualTo(Path.of("/tmp/s2000.json"));
        assertThat(cluster.order).isEqualTo("in-order");
        assertThat(fabric.size).isEqualTo(2000);
        assertThat(fabric.nics).isEqualTo(8);
        assertThat(fabric.file).isEqualTo(Path.of("/tmp/f2000.json"));
    }

    @Test
    void theClusterIsScrambledUnlessTold() {
        SyntheticCluster.Arguments cluster = new SyntheticCluster.Arguments();

        assertThat(BenchCall.parse(cluster, "16", "out.json").exit()).isEmpty();
        assertThat(cluster.order).isEqualTo("scrambled");
    }

    @Test
    void aBadNumberNamesTheParameterAndExitsOne() {
        BenchCall cluster = BenchCall.parse(new SyntheticCluster.Arguments(), "2k", "out.json");
        BenchCall fabric = BenchCall.parse(new SyntheticFabric.Arguments(), "2000", "eight", "out.json");

        assertThat(cluster.exit()).hasValue(1);
        assertThat(cluster.err()).startsWith("SyntheticCluster: ").contains("(N)", "'2k'").doesNotContain("Exception");
        assertThat(fabric.exit()).hasValue(1);
        assertThat(fabric.err()).startsWith("SyntheticFabric: ").contains("(NICS)", "'eight'").doesNotContain("Exception");
    }

    @Test
    void missingAndExtraParametersAreRefused() {
        BenchCall missing = BenchCall.parse(new SyntheticFabric.Arguments(), "2000", "8");
        BenchCall extra = BenchCall.parse(new SyntheticCluster.Arguments(), "16", "out.json", "scrambled", "again");

        assertThat(missing.exit()).hasValue(1);
        assertThat(missing.err()).contains("Missing required parameter", "FILE");
        assertThat(extra.exit()).hasValue(1);
        assertThat(extra.err()).contains("'again'");
    }

    @Test
    void rangesAndTheOrderAreChecked() {
        assertThat(BenchCall.parse(new SyntheticCluster.Arguments(), "2", "out.json").err()).contains("Invalid value for N: 2 is less than 3");
        assertThat(BenchCall.parse(new SyntheticCluster.Arguments(), "16", "out.json", "sorted").err())
                .contains("'sorted' is not in-order or scrambled");
        assertThat(BenchCall.parse(new SyntheticFabric.Arguments(), "7", "8", "out.json").err()).contains("N: 7 is less than 8");
        assertThat(BenchCall.parse(new SyntheticFabric.Arguments(), "64", "33", "out.json").err()).contains("NICS: 33 is more than 32");
        assertThat(BenchCall.parse(new SyntheticFabric.Arguments(), "64", "3", "out.json").exit()).hasValue(1);
    }
}
