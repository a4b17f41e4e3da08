package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.RingEntry;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A running rank's own entry of the file {@code MLX_HOSTFILE} names, picked as MLX's ring backend picks it
 * (ml-explore/mlx v0.32.1, the source of the 0.32.4 wheel's backend: {@code mlx/distributed/ring/ring.cpp}
 * {@code init}, which takes {@code std::atoi(MLX_RANK)} and {@code load_nodes(MLX_HOSTFILE)}; {@code load_nodes},
 * one list of addresses per rank in file order; {@code RingGroup::RingGroup}, which listens on {@code nodes[rank]}
 * and refuses a rank past the file; {@code mlx/distributed/utils.cpp} {@code parse_address}, which splits
 * {@code "ip:port"} at its first {@code ':'}). The texts are what 0.32.4's {@code mlx.launch} writes
 * ({@code python/mlx/_distributed_utils/launch.py} {@code launch_ring}: {@code json.dumps} of the per-rank lists,
 * ports counting up from {@code --starting-port}, written by {@code echo}, so with a newline). Checked on 2026-11-29:
 * {@code ring.cpp} and {@code utils.cpp} have no change from v0.32.1 to the newest commit of the mirror (5521d2f,
 * 2026-08-23), the 0.32.4 wheel's {@code launch_ring} is v0.32.1's line for line, and its {@code libmlx.so} holds the
 * same "Rank cannot be larger than the size of the group".
 */
class RingHostsCodecEntryTest {
    /** launch_ring's file for four hosts of two ips each, --starting-port 5000, one connection per ip. */
    private static final String LAUNCHED = "[[\"10.0.0.1:5000\", \"10.0.1.1:5001\"], [\"10.0.0.2:5002\", \"10.0.1.2:5003\"],"
            + " [\"10.0.2.2:5004\", \"10.0.3.2:5005\"], [\"10.0.4.2:5006\", \"10.0.5.2:5007\"]]\n";

    @Test
    void eachRankTakesTheEntryAtItsMlxRankAndTheFilesSize() {
        assertThat(RingHostsCodec.entry(LAUNCHED, "0")).isEqualTo(new RingEntry(4, List.of("10.0.0.1:5000", "10.0.1.1:5001")));
        assertThat(RingHostsCodec.entry(LAUNCHED, "3")).isEqualTo(new RingEntry(4, List.of("10.0.4.2:5006", "10.0.5.2:5007")));
        assertThat(RingHostsCodec.entry(LAUNCHED, "2").ips()).containsExactly("10.0.2.2", "10.0.3.2");
    }

    @Test
    void mlxRankIsReadAsCsAtoiReadsIt() {
        assertThat(RingHostsCodec.mlxRank("2")).hasValue(2);
        assertThat(RingHostsCodec.mlxRank(" \t+2")).hasValue(2);
        assertThat(RingHostsCodec.mlxRank("2x")).hasValue(2);
        assertThat(RingHostsCodec.mlxRank("0002")).hasValue(2);
        assertThat(RingHostsCodec.mlxRank("")).hasValue(0);
        assertThat(RingHostsCodec.mlxRank("x2")).hasValue(0);
        assertThat(RingHostsCodec.mlxRank("-0")).hasValue(0);
        assertThat(RingHostsCodec.mlxRank("-1")).isEqualTo(OptionalInt.empty());
        assertThat(RingHostsCodec.mlxRank("1234567890")).isEqualTo(OptionalInt.empty());
        assertThat(RingHostsCodec.entry(LAUNCHED, "3 ").addresses()).containsExactly("10.0.4.2:5006", "10.0.5.2:5007");
    }

    @Test
    void aRankPastTheFileOrNegativeHasNoEntry() {
        // RingGroup refuses rank >= size ("Rank cannot be larger than the size of the group"); a negative one indexes before the list
        assertThatThrownBy(() -> RingHostsCodec.entry(LAUNCHED, "4")).hasMessage("MLX_RANK names no entry of the ring hostfile's 4"
                + " (the ring backend refuses it)");
        assertThatThrownBy(() -> RingHostsCodec.entry(LAUNCHED, "-1")).hasMessageStartingWith("MLX_RANK names no entry");
    }

    @Test
    void whatIsNotAnAddressAndPortIsNotPublishedAndTheMessageNeverQuotesTheFile() {
        String secret = "AKIA-planted-secret";
        assertThatThrownBy(() -> RingHostsCodec.entry("[[\"token:" + secret + "\"]]", "0"))
                .hasMessage("not a ring hostfile (a JSON array of arrays of \"HOST:PORT\" strings)");
        assertThatThrownBy(() -> RingHostsCodec.entry("{\"" + secret + "\": 1}", "0")).hasMessageNotContaining(secret);
        assertThatThrownBy(() -> RingHostsCodec.entry(secret, "0")).hasMessageNotContaining(secret);
        assertThatThrownBy(() -> RingHostsCodec.entry("[]", "0")).hasMessageContaining("of 0 entries");
        // the backend resolves a host name (getaddrinfo); railmap publishes only what it can check, and says so
        String named = "[[\"" + secret + ".local:5000\"], [\"10.0.0.2:5001\"]]";
        assertThatThrownBy(() -> RingHostsCodec.entry(named, "0")).hasMessageNotContaining(secret)
                .hasMessageContaining("address 0 of entry 0").hasMessageContaining("a host name is not published");
        assertThat(RingHostsCodec.entry(named, "1")).isEqualTo(new RingEntry(2, List.of("10.0.0.2:5001")));
        // glibc's getaddrinfo reads 010.0.0.1 as 8.0.0.1 (inet_aton, octal): not published rather than read as 10.0.0.1
        assertThatThrownBy(() -> RingHostsCodec.entry("[[\"010.0.0.1:5000\"], [\"10.0.0.2:5001\"]]", "0"))
                .hasMessageContaining("not an IPv4 address");
        String many = "[[" + IntStream.range(0, JobVariables.MAX_RING_ADDRESSES + 1).mapToObj(i -> "\"10.0.0.1:" + (5000 + i) + "\"")
                .collect(Collectors.joining(", ")) + "], [\"10.0.0.2:5001\"]]";
        assertThatThrownBy(() -> RingHostsCodec.entry(many, "0")).hasMessageContaining("over " + JobVariables.MAX_RING_ADDRESSES);
    }

    @Test
    void anAddressIsAnIpv4DottedQuadAndAPortFrom1To65535() {
        assertThat(RingEntry.isAddress("255.255.255.255:65535")).isTrue();
        assertThat(RingEntry.isAddress("169.254.200.2:5002")).isTrue();
        for (String no : List.of("10.0.0.1", "10.0.0.1:", "10.0.0.1:0", "10.0.0.1:65536", "10.0.0.1:05000", "10.0.0.1:http",
                "::1:5000", "fe80::1:5000", "10.0.0:5000", "10.0.0.256:5000", "a.local:5000", " 10.0.0.1:5000", "10.0.0.1:5000 ")) {
            assertThat(RingEntry.isAddress(no)).as(no).isFalse();
        }
    }
}
