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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes the Thunderbolt host-to-host link of {@code fixtures/linux/thunderbolt_xdomain_mac_peer.tree} (its RDMA
 * device removed, so that the link alone is at stake): the content of every file discovery reads for XDomain
 * {@code 0-1} is an input, an absent input a missing file. Discovery returns, the link is one port or one skip or
 * (when its {@code uevent} names no XDomain) nothing, never two, and every reason and note is one clean line
 * ({@link DiscoveryFuzzing}). Seeds: the fixture's values and the real UUIDs of fixtures/README.md.
 */
class XDomainTreeFuzzTest {
    private static final String XD = "sys/devices/pci0000:00/0000:00:0d.2/domain0/0-0/0-1";
    private static final List<String> FILES = List.of(XD + "/uevent", XD + "/unique_id",
            "sys/devices/pci0000:00/0000:00:0d.2/domain0/0-0/unique_id", XD + "/rx_speed", XD + "/rx_lanes", XD + "/tx_lanes",
            XD + "/device_name", XD + "/0-1.1/key");
    private static final List<String> NAMES = List.of("uevent", "unique_id", "host unique_id", "rx_speed", "rx_lanes", "tx_lanes",
            "device_name", "key");

    private static Path root;
    /** What each file holds now, so that only the files an input changes are written. */
    private static final byte[][] WRITTEN = new byte[FILES.size()][];
    private static final boolean[] KNOWN = new boolean[FILES.size()];

    @BeforeAll
    static void tree() throws IOException {
        root = Files.createTempDirectory("railmap-xdomain-fuzz");
        new SysfsTree(root).load(SysfsTree.fixture("thunderbolt_xdomain_mac_peer.tree"));
        Files.delete(root.resolve("sys/class/infiniband/usb4_rdma4"));
    }

    @AfterAll
    static void removeTree() {
        SysfsTree.delete(root);
    }

    static Stream<Arguments> seeds() {
        return Stream.of(
                args("DEVTYPE=thunderbolt_xdomain", "817dcfa4-b481-4100-80fc-91c7aa969f0b", "28ca4c30-a263-4c55-b302-953416d0b209",
                        "20.0 Gb/s", "2", "2", null, "network"),
                args("DEVTYPE=thunderbolt_xdomain", "7f158861-c131-4d0d-83b6-ca50ef76c32b", "c6030000-0080-7518-2391-a4e51a82e819",
                        "40.0 Gb/s", "3", "1", "strix-1", "network"),
                args("DEVTYPE=thunderbolt_device", "c0030000-00a2-8508-2219-f4d4d2c1a918", "c6030000-0080-7518-2391-a4e51a82e819",
                        "20.0 Gb/s", "2", "2", "Core", null));
    }

    private static Arguments args(String... texts) {
        return Arguments.of((Object[]) Stream.of(texts).map(t -> t == null ? null : (t + "\n").getBytes(StandardCharsets.UTF_8))
                .toArray(byte[][]::new));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"DEVTYPE=thunderbolt_xdomain", "DEVTYPE=thunderbolt_device", "817dcfa4-b481-4100-80fc-91c7aa969f0b",
        ".0 Gb/s", "network"})
    @FuzzTest(maxExecutions = 3_000, maxDuration = Fuzzing.MAX_DURATION)
    void oneXDomain(byte[] uevent, byte[] uniqueId, byte[] hostUniqueId, byte[] rxSpeed, byte[] rxLanes, byte[] txLanes,
                    byte[] deviceName, byte[] key) {
        byte[][] given = {uevent, uniqueId, hostUniqueId, rxSpeed, rxLanes, txLanes, deviceName, key};
        for (int i = 0; i < given.length; i++) {
            if (!KNOWN[i] || !Arrays.equals(WRITTEN[i], given[i])) {
                SysfsTree.writeOrRemove(root.resolve(FILES.get(i)), given[i]);
                WRITTEN[i] = given[i] == null ? null : given[i].clone();
                KNOWN[i] = true;
            }
        }
        Map<String, byte[]> inputs = DiscoveryFuzzing.inputs(NAMES, given);
        Discovery found = DiscoveryFuzzing.discover(new SysfsPortSource("n1", root, InterfaceSelection.rdmaOnly()), inputs);
        if (found == null || found.ports().size() + found.skipped().size() > 1
                || found.ports().stream().anyMatch(p -> !p.port().thunderbolt().flatMap(t -> t.xdomain()).equals(java.util.Optional.of("0-1")))) {
            throw Fuzzing.failure("the one XDomain reported or skipped more than once, or a port that is not it (" + found + ")", inputs, null);
        }
    }
}
