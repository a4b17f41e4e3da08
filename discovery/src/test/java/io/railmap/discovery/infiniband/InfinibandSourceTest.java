package io.railmap.discovery.infiniband;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.LocalPort;
import io.railmap.discovery.SourceUnavailableException;
import io.railmap.discovery.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The InfiniBand source run against a stand-in {@code smpquery}: a shell script that answers with the
 * real captures ({@code fixtures/infiniband}) by device, so the real child processes, arguments,
 * bounds and parsing run. {@code mlx5_0} reaches a switch, {@code mlx5_1} another HCA (a
 * back-to-back cable), {@code mlx5_2} fails as smpquery does without umad access.
 */
class InfinibandSourceTest {
    @TempDir
    Path dir;
    private Path smpquery;
    private Path calls;

    @BeforeEach
    void standInSmpquery() throws Exception {
        Files.writeString(dir.resolve("switch.txt"), SmpQueryTest.fixture("infiniband/smpquery_nodeinfo_switch_mellanox.txt"));
        Files.writeString(dir.resolve("ca.txt"), SmpQueryTest.fixture("infiniband/smpquery_nodeinfo_ca_ibsim.txt"));
        calls = dir.resolve("calls.txt");
        smpquery = dir.resolve("smpquery");
        Files.writeString(smpquery, """
                #!/bin/sh
                echo "$*" >> '%s'
                case "$*" in
                  "-C mlx5_0 -P 1 -D nodeinfo 0,1") cat '%s' ;;
                  "-C mlx5_0 -P 1 -D nodedesc 0,1") echo 'Node Description:.........MF0;leaf-3:MQM8700/U1' ;;
                  "-C mlx5_1 -P 1 -D nodeinfo 0,1") cat '%s' ;;
                  *) echo "ibwarn: [1234] mad_rpc_open_port: can't open UMAD port ($2:$4)" >&2; exit 255 ;;
                esac
                """.formatted(calls, dir.resolve("switch.txt"), dir.resolve("ca.txt")));
        Files.setPosixFilePermissions(smpquery, PosixFilePermissions.fromString("rwx------"));
    }

    private static LocalPort ib(String netdev, String device, PortKind kind, PortState state) {
        Port port = new Port("gpu1", netdev, Optional.of(device), 1, kind, Optional.of(400.0), state, Optional.empty(), List.of());
        return new LocalPort(port, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), state == PortState.ACTIVE, List.of());
    }

    @Test
    void aSwitchNeighbourGivesItsGuidDescriptionAndPortAnHcaNeighbourNoneAndAFailingPortANote() throws Exception {
        SwitchPorts read = new InfinibandSource(() -> Optional.of(smpquery)).read(List.of(
                ib("ibp24s0", "mlx5_0", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp79s0", "mlx5_2", PortKind.INFINIBAND, PortState.ACTIVE)));

        assertThat(read.byNetdev()).containsOnlyKeys("ibp24s0");
        assertThat(read.of("ibp24s0")).contains(new SwitchPort(FarEndSource.INFINIBAND, "0xe41d2d03004bef70",
                Optional.of("MF0;leaf-3:MQM8700/U1"), "17"));
        assertThat(read.notes()).singleElement().asString()
                .startsWith("port \"ibp79s0\": " + smpquery + " -C mlx5_2 -P 1 -D nodeinfo 0,1: exit status 255: ibwarn:");
        // the HCA at the far end of mlx5_1 is not asked for its description
        assertThat(Files.readAllLines(calls)).containsExactly("-C mlx5_0 -P 1 -D nodeinfo 0,1", "-C mlx5_0 -P 1 -D nodedesc 0,1",
                "-C mlx5_1 -P 1 -D nodeinfo 0,1", "-C mlx5_2 -P 1 -D nodeinfo 0,1");
    }

    @Test
    void portsThatAreNotActiveInfinibandAreNotAskedAndWithoutThemNothingRuns() throws Exception {
        SwitchPorts read = new InfinibandSource(() -> Optional.of(smpquery)).read(List.of(
                ib("enp1s0f0np0", "mlx5_0", PortKind.ROCE, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.DOWN)));

        assertThat(read).isEqualTo(SwitchPorts.NONE);
        assertThat(calls).doesNotExist();
        assertThat(new InfinibandSource(Optional::empty).read(List.of())).isEqualTo(SwitchPorts.NONE);
    }

    @Test
    void withInfinibandPortsButNoSmpqueryOrNoPortAnsweringTheSourceIsUnavailableSayingWhatToDo() {
        List<LocalPort> ports = List.of(ib("ibp79s0", "mlx5_2", PortKind.INFINIBAND, PortState.ACTIVE));

        assertThatThrownBy(() -> new InfinibandSource(Optional::empty).read(ports))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageStartingWith("smpquery is not installed (no smpquery in PATH or sbin): install infiniband-diags");
        assertThatThrownBy(() -> new InfinibandSource(() -> Optional.of(smpquery)).read(ports))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageContaining("exit status 255")
                .hasMessageEndingWith("(smpquery needs the umad device /dev/infiniband/umad*: run as root or grant railmapd's user access)");
    }
}
