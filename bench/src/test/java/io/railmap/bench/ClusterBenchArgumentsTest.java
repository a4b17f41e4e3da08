package io.railmap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterBenchArgumentsTest {

    @Test
    void helpPrintsEveryOptionAndExitsZero() {
        BenchCall call = BenchCall.parse(new ClusterBench(), "--help");

        assertThat(call.exit()).hasValue(0);
        assertThat(call.out()).contains("Usage: ClusterBench", "--per-jvm", "--timing", "--join-ms", "--no-key", "--java", "--idle-s",
                "--timeout-s", "--seeds", "--in-process", "--one-by-one", "SIZE");
        assertThat(call.err()).isEmpty();
    }

    @Test
    void noArgumentsKeepTheDefaults() {
        ClusterBench bench = new ClusterBench();

        assertThat(BenchCall.parse(bench).exit()).isEmpty();
        assertThat(bench.sizes).containsExactly(64, 256);
        assertThat(bench.perJvm).isEqualTo(64);
        assertThat(bench.timing).isEqualTo("default");
        assertThat(bench.joinMs).isZero();
        assertThat(bench.noKey).isFalse();
        assertThat(bench.idleS).isEqualTo(20);
        assertThat(bench.timeoutS).isEqualTo(300);
        assertThat(bench.seeds).isEqualTo(3);
        assertThat(bench.oneByOne).isFalse();
        assertThat(bench.inProcess).isFalse();
    }

    @Test
    void everyOptionLands() {
        ClusterBench bench = new ClusterBench();
        String java = ProcessHandle.current().info().command().orElseThrow();

        BenchCall call = BenchCall.parse(bench, "--per-jvm", "32", "--timing", "lab", "--join-ms", "3000", "--no-key", "--java", java,
                "--idle-s", "60", "--timeout-s", "120", "--seeds", "0", "--in-process", "--one-by-one", "16", "128");

        assertThat(call.exit()).isEmpty();
        assertThat(call.err()).isEmpty();
        assertThat(List.of(bench.perJvm, bench.idleS, bench.timeoutS, bench.seeds)).containsExactly(32, 60, 120, 0);
        assertThat(bench.timing).isEqualTo("lab");
        assertThat(bench.joinMs).isEqualTo(3000);
        assertThat(bench.noKey).isTrue();
        assertThat(bench.java).isEqualTo(java);
        assertThat(bench.oneByOne).isTrue();
        assertThat(bench.inProcess).isTrue();
        assertThat(bench.sizes).containsExactly(16, 128);
    }

    @Test
    void javaMayBeANameOnThePath() {
        ClusterBench bench = new ClusterBench();

        assertThat(BenchCall.parse(bench, "--java", "sh", "16").exit()).isEmpty();
        assertThat(bench.java).isEqualTo("sh");
        assertThat(BenchCall.parse(new ClusterBench(), "--java", "no-such-java-anywhere", "16").err())
                .contains("option '--java': no-such-java-anywhere is not an executable file on the PATH");
    }

    @Test
    void aValueThatIsNoNumberNamesTheOptionAndExitsOne() {
        BenchCall call = BenchCall.parse(new ClusterBench(), "--idle-s", "soon", "64");

        assertThat(call.exit()).hasValue(1);
        assertThat(call.err()).startsWith("ClusterBench: ").contains("'--idle-s'", "'soon'").doesNotContain("Exception", "\tat ");
        assertThat(call.out()).isEmpty();
    }

    @Test
    void aMissingValueNamesTheOption() {
        BenchCall call = BenchCall.parse(new ClusterBench(), "64", "--idle-s");

        assertThat(call.exit()).hasValue(1);
        assertThat(call.err()).contains("--idle-s").doesNotContain("Exception");
    }

    @Test
    void anUnknownFlagIsRefusedNotTakenAsASize() {
        BenchCall call = BenchCall.parse(new ClusterBench(), "--idle", "5", "64");

        assertThat(call.exit()).hasValue(1);
        assertThat(call.err()).contains("Unknown option: '--idle'", "--idle-s");
    }

    @Test
    void valuesPicocliCannotCheckAreRefusedNamingTheInput() {
        assertThat(BenchCall.parse(new ClusterBench(), "4").err())
                .contains("Invalid value for SIZE: 4 is less than 5", "give 5 to 64000");
        assertThat(BenchCall.parse(new ClusterBench(), "64001").err()).contains("SIZE: 64001 is more than 64000");
        assertThat(BenchCall.parse(new ClusterBench(), "--idle-s", "0").err()).contains("option '--idle-s': 0 is less than 1");
        assertThat(BenchCall.parse(new ClusterBench(), "--timeout-s", "0").err()).contains("option '--timeout-s': 0 is less than 1");
        assertThat(BenchCall.parse(new ClusterBench(), "--per-jvm", "0").err()).contains("option '--per-jvm': 0 is less than 1");
        assertThat(BenchCall.parse(new ClusterBench(), "--seeds", "-1").err()).contains("option '--seeds': -1 is less than 0");
        assertThat(BenchCall.parse(new ClusterBench(), "--join-ms", "0").err()).contains("option '--join-ms': 0 is less than 1");
        assertThat(BenchCall.parse(new ClusterBench(), "--timing", "fast").err()).contains("option '--timing'", "fast", "default or lab");
        assertThat(BenchCall.parse(new ClusterBench(), "--java", "/nonexistent/java").err())
                .contains("option '--java': /nonexistent/java is not an executable file");
        assertThat(BenchCall.parse(new ClusterBench(), "--timeout-s", "0").exit()).hasValue(1);
    }
}
