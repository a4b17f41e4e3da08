package io.railmap.daemon.cluster.config;

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

    @Test
    void aHostIsAHostNameOrAnIpLiteralAndTheListIsBounded() {
        assertThat(Seed.parseList("node_2.rack-1.example,fd00::1%eth0", 7800))
                .containsExactly(new Seed("node_2.rack-1.example", 7800), new Seed("fd00::1%eth0", 7800));
        assertThatThrownBy(() -> Seed.parseList("a b", 7800))
                .hasMessage("--seeds entry \"a b\" is not host[:port]: seed host \"a b\" is neither a host name nor an IP address");
        assertThatThrownBy(() -> Seed.parseList("evil\u001b[2J", 7800))
                .hasMessageStartingWith("--seeds entry \"evil\\x1b[2J\" is not host[:port]");
        assertThatThrownBy(() -> new Seed("h".repeat(254), 7800)).hasMessageContaining("is neither a host name nor an IP address");
        assertThat(Seed.parseList(String.join(",", java.util.Collections.nCopies(Seed.MAX_SEEDS, "a")), 7800)).hasSize(Seed.MAX_SEEDS);
        assertThatThrownBy(() -> Seed.parseList(String.join(",", java.util.Collections.nCopies(Seed.MAX_SEEDS + 1, "a")), 7800))
                .hasMessage("--seeds lists 257 entries; at most 256 are taken (a few per cluster are enough: any member answers)");
    }
}
