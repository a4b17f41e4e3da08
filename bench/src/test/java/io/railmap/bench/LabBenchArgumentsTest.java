package io.railmap.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabBenchArgumentsTest {

    @Test
    void helpPrintsEveryOptionAndExitsZero() {
        BenchCall call = BenchCall.parse(new LabBench.Arguments(), "--help");

        assertThat(call.exit()).hasValue(0);
        assertThat(call.out()).contains("Usage: LabBench", "--footprint-only", "--settle-s", "--idle-s", "N...", "default: 180", "default: 60");
    }

    @Test
    void noArgumentsKeepTheDefaults() {
        LabBench.Arguments arguments = new LabBench.Arguments();

        assertThat(BenchCall.parse(arguments).exit()).isEmpty();
        assertThat(arguments.sizes).containsExactly(2, 4, 8);
        assertThat(arguments.footprintOnly).isFalse();
        assertThat(arguments.settleS).isEqualTo(LabBench.SETTLE_S);
        assertThat(arguments.idleS).isEqualTo(LabBench.IDLE_S);
    }

    @Test
    void theReadmeLinesLand() {
        LabBench.Arguments arguments = new LabBench.Arguments();

        assertThat(BenchCall.parse(arguments, "--footprint-only", "--settle-s", "0", "--idle-s", "30", "2", "4").exit()).isEmpty();
        assertThat(arguments.footprintOnly).isTrue();
        assertThat(arguments.settleS).isZero();
        assertThat(arguments.idleS).isEqualTo(30);
        assertThat(arguments.sizes).containsExactly(2, 4);
    }

    @Test
    void aBadNumberNamesTheOptionAndExitsOne() {
        BenchCall call = BenchCall.parse(new LabBench.Arguments(), "--settle-s", "3m", "2");

        assertThat(call.exit()).hasValue(1);
        assertThat(call.err()).startsWith("LabBench: ").contains("'--settle-s'", "'3m'").doesNotContain("Exception");
    }

    @Test
    void rangesAreChecked() {
        assertThat(BenchCall.parse(new LabBench.Arguments(), "--idle-s", "0").err()).contains("option '--idle-s': 0 is less than 1", "give 1 or more");
        assertThat(BenchCall.parse(new LabBench.Arguments(), "--settle-s", "-1").err()).contains("option '--settle-s': -1 is less than 0");
        assertThat(BenchCall.parse(new LabBench.Arguments(), "1").err()).contains("Invalid value for N: 1 is less than 2");
        BenchCall tooMany = BenchCall.parse(new LabBench.Arguments(), "2", "254");
        assertThat(tooMany.exit()).hasValue(1);
        assertThat(tooMany.err()).contains("N: 254 is more than 253");
    }
}
