package io.railmap.discovery.infiniband;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.railmap.discovery.linux.SysfsFiles;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SourceUnavailableException;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.FarEndSource;
import io.railmap.matrix.model.Infiniband;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.SwitchPort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The InfiniBand source run against a stand-in {@code smpquery}: a shell script that answers with the
 * real captures ({@code fixtures/infiniband}) by device, so the real child processes, arguments,
 * bounds and parsing run. {@code mlx5_0} reaches a switch, {@code mlx5_1} another HCA (a
 * back-to-back cable; the real ConnectX-3 NodeInfo), {@code mlx5_2} fails as smpquery does without
 * umad access. The node GUIDs under the stand-in {@code /sys} are real ones in the kernel's form:
 * {@code 0c42:a103:0040:29a0} is a ConnectX-4 Lx's ({@code fixtures/linux/connectx4lx_...txt},
 * ibv_devinfo {@code node_guid}, which prints the sysfs form), {@code 4821:0b03:0096:a5cb} a DGX
 * Spark ConnectX-7's ({@code cat /sys/class/infiniband/rocep1s0f0/sys_image_guid}, same form).
 */
class InfinibandSourceTest {
    @TempDir
    Path dir;
    private Path smpquery;
    private Path calls;
    private Path sys;

    @BeforeEach
    void standInSmpquery() throws Exception {
        Files.writeString(dir.resolve("switch.txt"), SmpQueryTest.fixture("infiniband/smpquery_nodeinfo_switch_mellanox.txt"));
        Files.writeString(dir.resolve("ca.txt"), SmpQueryTest.fixture("infiniband/smpquery_nodeinfo_ca_connectx3.txt"));
        sys = dir.resolve("sys");
        nodeGuid("mlx5_0", "0c42:a103:0040:29a0\n");
        nodeGuid("mlx5_1", "4821:0b03:0096:a5cb\n");
        nodeGuid("mlx5_2", "0c42:a103:0075:3272\n");
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

    private void nodeGuid(String hca, String text) throws Exception {
        Path device = Files.createDirectories(sys.resolve("class/infiniband").resolve(hca));
        Files.writeString(device.resolve("node_guid"), text);
    }

    private InfinibandSource source() {
        return new InfinibandSource(() -> Optional.of(smpquery), sys);
    }

    private static LocalPort ib(String netdev, String device, PortKind kind, PortState state) {
        Port port = new Port("gpu1", netdev, Optional.of(device), 1, kind, Optional.of(400.0), state, Optional.empty(), List.of());
        return new LocalPort(port, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), state == PortState.ACTIVE, List.of());
    }

    @Test
    void aSwitchNeighbourGivesItsGuidDescriptionAndPortAnHcaNeighbourItsGuidAndPortAndAFailingPortANote() throws Exception {
        SwitchPorts read = source().read(List.of(
                ib("ibp24s0", "mlx5_0", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp79s0", "mlx5_2", PortKind.INFINIBAND, PortState.ACTIVE)));

        assertThat(read.byNetdev()).containsOnlyKeys("ibp24s0");
        assertThat(read.of("ibp24s0")).contains(new SwitchPort(FarEndSource.INFINIBAND, "0xe41d2d03004bef70",
                Optional.of("MF0;leaf-3:MQM8700/U1"), "17"));
        // the HCA at the far end of mlx5_1: its node GUID and the port the cable enters (NodeInfo Guid, LocalPort)
        assertThat(read.infiniband()).containsOnlyKeys("ibp24s0", "ibp64s0", "ibp79s0");
        assertThat(read.infinibandOf("ibp64s0")).contains(new Infiniband(Optional.of("0x48210b030096a5cb"),
                Optional.of("0x0002c90300336fe0"), Optional.of(1)));
        // every port whose HCA node GUID sysfs gives carries it, whatever its far end
        assertThat(read.infinibandOf("ibp24s0")).contains(Infiniband.of("0x0c42a103004029a0"));
        assertThat(read.infinibandOf("ibp79s0")).contains(Infiniband.of("0x0c42a10300753272"));
        assertThat(read.notes()).singleElement().asString()
                .startsWith("port \"ibp79s0\": " + smpquery + " -C mlx5_2 -P 1 -D nodeinfo 0,1: exit status 255: ibwarn:");
        // the HCA at the far end of mlx5_1 is not asked for its description
        assertThat(Files.readAllLines(calls)).containsExactly("-C mlx5_0 -P 1 -D nodeinfo 0,1", "-C mlx5_0 -P 1 -D nodedesc 0,1",
                "-C mlx5_1 -P 1 -D nodeinfo 0,1", "-C mlx5_2 -P 1 -D nodeinfo 0,1");
    }

    @Test
    void portsThatAreNotActiveInfinibandAreNotAskedAndWithoutThemNothingRuns() throws Exception {
        SwitchPorts read = source().read(List.of(
                ib("enp1s0f0np0", "mlx5_0", PortKind.ROCE, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.DOWN)));

        assertThat(read).isEqualTo(SwitchPorts.NONE);
        assertThat(calls).doesNotExist();
        assertThat(new InfinibandSource(Optional::empty, sys).read(List.of())).isEqualTo(SwitchPorts.NONE);
    }

    @Test
    void withInfinibandPortsButNoSmpqueryOrNoPortAnsweringTheSourceIsUnavailableSayingWhatToDo() {
        List<LocalPort> ports = List.of(ib("ibp79s0", "mlx5_2", PortKind.INFINIBAND, PortState.ACTIVE));

        assertThatThrownBy(() -> new InfinibandSource(Optional::empty, sys).read(ports))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageStartingWith("smpquery is not installed (no smpquery in PATH or sbin): install infiniband-diags");
        assertThatThrownBy(() -> source().read(ports))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageContaining("exit status 255")
                .hasMessageEndingWith("(smpquery needs the umad device /dev/infiniband/umad*: run as root or grant railmapd's user access)");
    }

    @Test
    void aNodeGuidThatSysfsDoesNotGiveIsANoteAndTheFarEndIsStillKept() throws Exception {
        Files.delete(sys.resolve("class/infiniband/mlx5_1/node_guid"));
        nodeGuid("mlx5_0", "0c42a103004029a0\n");

        SwitchPorts read = source().read(List.of(
                ib("ibp24s0", "mlx5_0", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.ACTIVE)));

        assertThat(read.infiniband()).containsOnlyKeys("ibp64s0");
        assertThat(read.infinibandOf("ibp64s0")).contains(new Infiniband(Optional.empty(), Optional.of("0x0002c90300336fe0"), Optional.of(1)));
        assertThat(read.of("ibp24s0")).isPresent();
        assertThat(read.notes()).containsExactly(
                "port \"ibp24s0\": " + sys.resolve("class/infiniband/mlx5_0/node_guid") + ": \"0c42a103004029a0\" is not a node GUID"
                        + " (four groups of four hex digits separated by ':'); a cable from it to another HCA cannot be confirmed",
                "port \"ibp64s0\": no file " + sys.resolve("class/infiniband/mlx5_1/node_guid")
                        + "; a cable from it to another HCA cannot be confirmed");
    }

    /** node_guid is read as every sysfs attribute (SysfsFiles): a FIFO is not opened, a long file not read past the page. */
    @Test
    void aFifoOrAnOversizeNodeGuidIsANoteNotAHang() throws Exception {
        Path fifo = sys.resolve("class/infiniband/mlx5_0/node_guid");
        Files.delete(fifo);
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        Path oversize = sys.resolve("class/infiniband/mlx5_1/node_guid");
        Files.writeString(oversize, "4821:0b03:0096:a5cb\n" + " ".repeat(SysfsFiles.MAX_BYTES));
        List<LocalPort> ports = List.of(
                ib("ibp24s0", "mlx5_0", PortKind.INFINIBAND, PortState.ACTIVE),
                ib("ibp64s0", "mlx5_1", PortKind.INFINIBAND, PortState.ACTIVE));

        CompletableFuture<SwitchPorts> run = CompletableFuture.supplyAsync(() -> {
            try {
                return source().read(ports);
            } catch (SourceUnavailableException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(run::isDone);

        SwitchPorts read = run.get();
        assertThat(read.of("ibp24s0")).isPresent();
        assertThat(read.infinibandOf("ibp64s0")).contains(new Infiniband(Optional.empty(), Optional.of("0x0002c90300336fe0"), Optional.of(1)));
        assertThat(read.notes()).containsExactly(
                "port \"ibp24s0\": cannot read " + fifo + "; a cable from it to another HCA cannot be confirmed",
                "port \"ibp64s0\": " + oversize + ": longer than 4096 bytes, which no sysfs attribute is;"
                        + " a cable from it to another HCA cannot be confirmed");
    }

    @Test
    void theKernelsNodeGuidFormIsWrittenAsSmpqueryWritesAGuid() {
        // drivers/infiniband/core/sysfs.c writes "%04x:%04x:%04x:%04x"; rdma-core v64.0 libibverbs/device.c
        // ibv_get_device_guid reads it back with "%hx:%hx:%hx:%hx", most significant group first
        assertThat(InfinibandSource.sysfsNodeGuid("node_guid", "4821:0b03:0096:a5cb\n")).isEqualTo("0x48210b030096a5cb");
        assertThat(InfinibandSource.sysfsNodeGuid("node_guid", "0C42:A103:0040:29A0")).isEqualTo("0x0c42a103004029a0");
        assertThatThrownBy(() -> InfinibandSource.sysfsNodeGuid("node_guid", "0x0c42a103004029a0"))
                .hasMessage("node_guid: \"0x0c42a103004029a0\" is not a node GUID (four groups of four hex digits separated by ':')");
        assertThatThrownBy(() -> InfinibandSource.sysfsNodeGuid("node_guid", "c42:a103:40:29a0")).isInstanceOf(IllegalArgumentException.class);
    }
}
