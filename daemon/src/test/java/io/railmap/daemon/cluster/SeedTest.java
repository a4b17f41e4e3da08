package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeedTest {
    @Test
    void everyFormOfAnEntry() {
        assertThat(Seed.parseList("10.0.0.1, node2:7900,[fd00::2]:7801,fd00::3,[fd00::4]", 7800)).containsExactly(
                new Seed("10.0.0.1", 7800), new Seed("node2", 7900), new Seed("fd00::2", 7801), new Seed("fd00::3", 7800),
                new Seed("fd00::4", 7800));
        assertThat(new Seed("fd00::2", 7801)).hasToString("[fd00::2]:7801");
        assertThat(Seed.parseList("a", 1)).isEqualTo(List.of(new Seed("a", 1)));
    }

    @Test
    void aBadEntryIsNamed() {
        assertThatThrownBy(() -> Seed.parseList("a,,b", 7800)).hasMessageStartingWith("--seeds \"a,,b\" has an empty entry");
        assertThatThrownBy(() -> Seed.parseList("a:x", 7800)).hasMessage("--seeds entry \"a:x\" is not host[:port]: port \"x\" is not a number");
        assertThatThrownBy(() -> Seed.parseList("a:70000", 7800)).hasMessageContaining("seed port 70000 is outside 1-65535");
        assertThatThrownBy(() -> Seed.parseList("[fd00::1", 7800)).hasMessageContaining("no closing ]");
    }
}
