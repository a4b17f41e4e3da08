package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.codec.HostfileCodec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The node of each host of a hostfile: by name, by name up to the first dot, or by management address. */
class HostfileRanksTest {
    private static final List<String> NODES = List.of("studio-a", "studio-b", "studio-c", "10");
    private static final Function<String, Optional<String>> NO_ADDRESSES = node -> Optional.empty();

    private static Hostfile hosts(String... ssh) {
        return HostfileCodec.read("h.json", Arrays.stream(ssh).map(s -> "{\"ssh\": \"" + s + "\"}").collect(Collectors.joining(", ", "[", "]")));
    }

    private static List<String> resolve(Hostfile file, Function<String, Optional<String>> management, Optional<List<String>> given) {
        return HostfileRanks.resolve("h.json", file, NODES, management, given, "--hosts");
    }

    @Test
    void anSshNameIsANodeByItsWholeNameOrUpToItsFirstDotLessAnyUser() {
        assertThat(resolve(hosts("studio-b.local", "studio-a", "admin@studio-c.example.com"), NO_ADDRESSES, Optional.empty()))
                .containsExactly("studio-b", "studio-a", "studio-c");
    }

    @Test
    void aWholeNameWinsOverItsFirstLabel() {
        List<String> nodes = List.of("studio-a", "studio-a.lab");
        assertThat(HostfileRanks.resolve("h.json", hosts("studio-a.lab", "studio-a.local"), nodes, NO_ADDRESSES, Optional.empty(), "--hosts"))
                .containsExactly("studio-a.lab", "studio-a");
    }

    @Test
    void anAddressIsTheNodeWhoseManagementAddressItIs() {
        Map<String, String> management = Map.of("studio-a", "192.168.1.21", "studio-b", "fe80::1", "studio-c", "not an address");
        Function<String, Optional<String>> seam = node -> Optional.ofNullable(management.get(node));
        // IPv6 compared as addresses, not as text
        assertThat(resolve(hosts("192.168.1.21", "fe80:0:0:0:0:0:0:1", "root@192.168.1.21"), seam, Optional.of(List.of("studio-a", "studio-b", "studio-a"))))
                .containsExactly("studio-a", "studio-b", "studio-a");
        assertThat(resolve(hosts("fe80:0::1", "192.168.1.21"), seam, Optional.empty())).containsExactly("studio-b", "studio-a");
        // an address is never cut at its first dot: 10.0.0.1 is not node "10"
        assertThatThrownBy(() -> resolve(hosts("10.0.0.1"), seam, Optional.empty())).isInstanceOf(UnknownHostsException.class);
    }

    @Test
    void anUnknownHostNamesItselfTheKnownNodesAndWhatToDo() {
        assertThatThrownBy(() -> resolve(hosts("studio-a.local", "mac2"), NO_ADDRESSES, Optional.empty()))
                .isInstanceOf(UnknownHostsException.class)
                .hasMessage("h.json: at $[1].ssh: \"mac2\" (rank 1) is no node railmap knows (known: studio-a, studio-b, studio-c, 10); "
                        + "an ssh name matches a node by its whole name, by its name up to the first dot, or by the node's management "
                        + "address; when the file names hosts otherwise (ssh aliases), give --hosts with the node of each host, in file order")
                .extracting(e -> ((UnknownHostsException) e).hosts()).isEqualTo(List.of("mac2"));
    }

    @Test
    void manyUnknownHostsAreCountedNotAllNamedAndNamesAreEscaped() {
        String[] ssh = IntStream.range(0, 40).mapToObj(i -> "mac" + i + (i == 0 ? "\\u001b[31m" : "")).toArray(String[]::new);
        assertThatThrownBy(() -> resolve(hosts(ssh), NO_ADDRESSES, Optional.empty()))
                .hasMessageStartingWith("h.json: at $[0].ssh: \"mac0\\x1b[31m\" (rank 0), \"mac1\" (rank 1)")
                .hasMessageContaining("\"mac15\" (rank 15) and 24 more are no nodes railmap knows")
                .extracting(e -> ((UnknownHostsException) e).hosts()).asList().hasSize(HostfileRanks.SHOWN);
    }

    @Test
    void givenHostsMustAgreeAndNameTheHostsTheFileNamesOtherwise() {
        // an alias (mac2) is the given node; a host that names a node must be that node
        assertThat(resolve(hosts("studio-a.local", "mac2"), NO_ADDRESSES, Optional.of(List.of("studio-a", "studio-c"))))
                .containsExactly("studio-a", "studio-c");
        assertThatThrownBy(() -> resolve(hosts("studio-a.local", "studio-b.local"), NO_ADDRESSES, Optional.of(List.of("studio-b", "studio-a"))))
                .hasMessage("--hosts does not agree with h.json: host 0 (ssh \"studio-a.local\") is node studio-a, but --hosts names "
                        + "studio-b for rank 0: leave --hosts out (the file gives the order), or name the file's hosts in its order");
        assertThatThrownBy(() -> resolve(hosts("studio-a.local", "studio-b.local"), NO_ADDRESSES, Optional.of(List.of("studio-a"))))
                .hasMessage("--hosts names 1 node but h.json has 2 hosts: leave --hosts out (the file gives the order), or name the "
                        + "node of each host in file order");
    }

    @Test
    void twoHostsOfOneNodeAreRefused() {
        assertThatThrownBy(() -> resolve(hosts("studio-a.local", "studio-b", "studio-a"), NO_ADDRESSES, Optional.empty()))
                .hasMessage("h.json: at $[2].ssh: \"studio-a\" is node studio-a, like host 0 (\"studio-a.local\"): railmap checks one "
                        + "rank per node; list each node once");
    }

    @Test
    void onlyLiteralsAreAddresses() {
        assertThat(HostfileRanks.literal("192.168.1.21")).isPresent();
        assertThat(HostfileRanks.literal("::ffff:10.0.0.1")).isPresent();
        for (String name : List.of("studio-a.local", "256.1.1.1", "10.0.0", "1.2.3.4.5", "fe80::1%en0", "deadbeef", ".:", "[::1]", "")) {
            assertThat(HostfileRanks.literal(name)).as(name).isEmpty();
        }
    }
}
