package io.railmap.discovery.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InterfaceSelectionTest {

    @Test
    void theDefaultTakesNoPlainNetdevAndExcludesNothing() {
        InterfaceSelection none = InterfaceSelection.parse("  ");
        assertThat(none.selectsPlain("eth0")).isFalse();
        assertThat(none.excludedBy("mlx5_0", "eth0")).isEmpty();
    }

    @Test
    void includeGlobsSelectPlainNetdevsAndExcludesWin() {
        InterfaceSelection selection = InterfaceSelection.parse("veth*, en* ,!en9,!mlx5_1?");
        assertThat(selection.selectsPlain("veth3")).isTrue();
        assertThat(selection.selectsPlain("enp1s0")).isTrue();
        assertThat(selection.selectsPlain("en9")).isFalse();
        assertThat(selection.selectsPlain("eth0")).isFalse();
        assertThat(selection.excludedBy("mlx5_12", "ibp220s0")).contains("!mlx5_1?");
        assertThat(selection.excludedBy("mlx5_1", "ibp26s0")).isEmpty();
        assertThat(selection.excludedBy("rdma_en9", "en9")).contains("!en9");
    }

    @Test
    void braceAlternativesAndClassesWork() {
        InterfaceSelection selection = InterfaceSelection.parse("eth[0-1],{lo}");
        assertThat(selection.selectsPlain("eth1")).isTrue();
        assertThat(selection.selectsPlain("eth2")).isFalse();
        assertThat(selection.selectsPlain("lo")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a,,b", "!", "veth*,", "eth[0"})
    void anEmptyOrBrokenEntryIsRejectedQuotingIt(String list) {
        assertThatThrownBy(() -> InterfaceSelection.parse(list))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interface selection");
    }
}
