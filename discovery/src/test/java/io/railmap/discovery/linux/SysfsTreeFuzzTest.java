package io.railmap.discovery.linux;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryFuzzing;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.matrix.Fuzzing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes Linux discovery on a real sysfs layout ({@link SysfsTree}: HCA {@code mlx5_0} on a PCI
 * function with netdev {@code eth01}, class symlinks): the content of every file discovery reads
 * for one RDMA port and its netdev is an input, an absent input a missing file. Discovery returns,
 * that port is either reported or skipped (never the node), and every reason and note is one
 * clean line ({@link DiscoveryFuzzing}). Seeds: the values of the real captures in
 * {@code shared/fixtures/linux} (ConnectX-4 Lx RoCE, DGX Spark ConnectX-7 up and disabled, EDR
 * InfiniBand, an H100 host's polling port).
 */
class SysfsTreeFuzzTest {
    private static final List<String> PORT_FILES = List.of("state", "phys_state", "rate", "link_layer",
            "gids/0", "gid_attrs/types/0", "gid_attrs/ndevs/0");
    private static final List<String> NETDEV_FILES = List.of("operstate", "carrier", "address", "mtu", "ifindex", "speed");
    private static final List<String> NAMES = Stream.concat(PORT_FILES.stream(), NETDEV_FILES.stream()).toList();

    private static Path root;
    private static Path portDir;
    private static Path netdevDir;
    /** What each file holds now, so that only the files an input changes are written. */
    private static final byte[][] WRITTEN = new byte[NAMES.size()][];
    private static final boolean[] KNOWN = new boolean[NAMES.size()];

    @BeforeAll
    static void tree() throws IOException {
        root = Files.createTempDirectory("railmap-sysfs-fuzz");
        SysfsTree tree = new SysfsTree(root);
        tree.hca("mlx5_0", "0000:3b:00.0");
        portDir = tree.port("mlx5_0", 1, "4: ACTIVE", "5: LinkUp", "Ethernet");
        netdevDir = tree.netdev("eth01", "0000:3b:00.0", "up", "1", "0c:42:a1:40:29:a0", 1500);
    }

    @AfterAll
    static void removeTree() {
        SysfsTree.delete(root);
    }

    static Stream<Arguments> seeds() {
        String cx4Gid = "fe80:0000:0000:0000:0e42:a1ff:fe40:29a0";
        String edrGid = "fe80:0000:0000:0000:506b:4b03:00f5:ce9c";
        String ipoib = "00:00:10:49:fe:80:00:00:00:00:00:00:50:6b:4b:03:00:f5:ce:9c";
        return Stream.of(
                // connectx4lx_...: RoCE, GID table names the netdev, no rate file
                args("4: ACTIVE", "5: LinkUp", null, "Ethernet", cx4Gid, "RoCE v2", "eth01",
                        "up", "1", "0c:42:a1:40:29:a0", "1500", "2", null),
                // dgx_spark_...: f1 up at 200 Gb/s, MTU 9000; f0 disabled still showing a rate of 40
                args("4: ACTIVE", "5: LinkUp", "200 Gb/sec (2X NDR)", "Ethernet", cx4Gid, "RoCE v2", "eth01",
                        "up", "1", "4c:bb:47:2d:1a:31", "9000", "3", "200000"),
                args("1: DOWN", "3: Disabled", "40 Gb/sec (4X QDR)", "Ethernet", null, null, null,
                        "down", "0", "4c:bb:47:2d:1a:30", "1500", "4", null),
                // ibstatus_4x_mlx5_EDR_...: InfiniBand, IPoIB netdev found through device/net
                args("4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand", edrGid, null, null,
                        "up", "1", ipoib, "2044", "5", "-1"),
                // ibdev2netdev_8xCX7_...: an InfiniBand port polling for a link
                args("1: DOWN", "2: Polling", "10 Gb/sec (4X SDR)", "InfiniBand", null, null, null,
                        "down", "0", ipoib, "4092", "6", "4294967295"));
    }

    private static Arguments args(String... texts) {
        return Arguments.of((Object[]) Stream.of(texts).map(t -> t == null ? null : (t + "\n").getBytes(StandardCharsets.UTF_8))
                .toArray(byte[][]::new));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"4: ACTIVE", "1: DOWN", "5: LinkUp", " Gb/sec (4X NDR)", "InfiniBand", "Ethernet", "RoCE v2",
        "IB/RoCE v1", "fe80:0000:0000:0000:", "eth01", "up", "down", "unknown", "4294967295"})
    @FuzzTest(maxExecutions = 3_000, maxDuration = Fuzzing.MAX_DURATION)
    void onePortAndItsNetdev(byte[] state, byte[] physState, byte[] rate, byte[] linkLayer, byte[] gid, byte[] gidType,
                             byte[] gidNetdev, byte[] operstate, byte[] carrier, byte[] address, byte[] mtu, byte[] ifindex,
                             byte[] speed) {
        byte[][] given = {state, physState, rate, linkLayer, gid, gidType, gidNetdev, operstate, carrier, address, mtu, ifindex, speed};
        for (int i = 0; i < given.length; i++) {
            if (!KNOWN[i] || !java.util.Arrays.equals(WRITTEN[i], given[i])) {
                Path dir = i < PORT_FILES.size() ? portDir : netdevDir;
                SysfsTree.writeOrRemove(dir.resolve(NAMES.get(i)), given[i]);
                WRITTEN[i] = given[i] == null ? null : given[i].clone();
                KNOWN[i] = true;
            }
        }
        Map<String, byte[]> inputs = DiscoveryFuzzing.inputs(NAMES, given);
        Discovery found = DiscoveryFuzzing.discover(new SysfsPortSource("n1", root, InterfaceSelection.rdmaOnly()), inputs);
        if (found == null || found.ports().size() + found.skipped().size() != 1) {
            throw Fuzzing.failure("the one RDMA port neither reported nor skipped once (" + found + ")", inputs, null);
        }
    }
}
