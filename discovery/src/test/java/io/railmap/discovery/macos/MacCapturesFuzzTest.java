package io.railmap.discovery.macos;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.discovery.model.DiscoveryFuzzing;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.matrix.Fuzzing;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzes macOS discovery whole: the outputs of {@code system_profiler SPThunderboltDataType -json},
 * {@code networksetup -listallhardwareports}, {@code ibv_devinfo}, {@code rdma_ctl status} and
 * {@code ifconfig -a} are five inputs (an absent one is a command that failed; one that is not UTF-8 is refused as the
 * runners refuse it), fed through the real {@link ThunderboltPortSource}. Discovery returns, or
 * fails with a {@code DiscoveryException}; every reason and note is one clean line
 * ({@link DiscoveryFuzzing}). Seeds: the real captures in {@code fixtures/macos}, paired as the
 * machines they came from.
 */
class MacCapturesFuzzTest {
    private static final List<String> NAMES = List.of("system_profiler", "networksetup", "ibv_devinfo", "rdma_ctl", "ifconfig");

    static Stream<Arguments> seeds() {
        String m5 = Fixtures.read("macos/system_profiler_thunderbolt_m5max_macbookpro.json");
        String m3 = Fixtures.read("macos/system_profiler_thunderbolt_m3ultra_two_cables_dock_trimmed.json");
        String m4 = Fixtures.read("macos/system_profiler_thunderbolt_m4max_two_cables_trimmed.json");
        String notes = Fixtures.read("macos/ibv_devinfo_m3ultra_notes.txt");
        String m3Verbs = Fixtures.section(notes, "### ibv_devinfo", "### ").replace("```\n", "");
        String tn3205All = Fixtures.read("macos/ibv_devinfo_tn3205.txt");
        String tn3205 = Fixtures.section(tn3205All, "% ibv_devinfo", "## ");
        String tn3205Ifconfig = Fixtures.section(tn3205All, "% ifconfig en2", "% ") + Fixtures.section(tn3205All, "% ifconfig bridge0", "## ");
        String intelMac = Fixtures.read("macos/ifconfig_a_intel_mac_thunderbolt_bridge0.txt");
        return Stream.of(
                args(m5, Fixtures.read("macos/networksetup_m5max_macbookpro.txt"), tn3205, null, tn3205Ifconfig),
                args(m3, Fixtures.networksetupM3Ultra(), m3Verbs, "enabled\n", intelMac),
                args(m4, Fixtures.networksetupM4Max(), Fixtures.read("macos/ibv_devices_m3ultra.txt"), "enabled\n", tn3205Ifconfig),
                args(m4, Fixtures.read("macos/networksetup_macmini.txt"), null, "disabled\n", null));
    }

    private static Arguments args(String... texts) {
        return Arguments.of((Object[]) Stream.of(texts).map(t -> t == null ? null : t.getBytes(StandardCharsets.UTF_8))
                .toArray(byte[][]::new));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"\"SPThunderboltDataType\"", "\"_items\"", "\"_name\"", "\"domain_uuid_key\"", "\"services_title\"",
        "\"receptacle_1_tag\"", "\"receptacle_id_key\"", "\"current_speed_key\"", "\"80 Gb/s\"", "\"Up to 120 Gb/s\"",
        "Hardware Port: Thunderbolt ", "Device: en", "Ethernet Address: ", "VLAN Configurations", "hca_id:", "port:",
        "state:", "PORT_ACTIVE (4)", "PORT_DOWN (1)", "enabled", "disabled", ": flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST>",
        "\tinet ", "\tinet6 ", "%en2", "\tmember: ", "bridge0"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void captures(byte[] systemProfiler, byte[] networksetup, byte[] ibvDevinfo, byte[] rdmaCtl, byte[] ifconfig) {
        Map<MacCommand, byte[]> outputs = new java.util.EnumMap<>(MacCommand.class);
        byte[][] given = {systemProfiler, networksetup, ibvDevinfo, rdmaCtl, ifconfig};
        for (int i = 0; i < given.length; i++) {
            if (given[i] != null) {
                outputs.put(MacCommand.values()[i], given[i]);
            }
        }
        CommandRunner runner = command -> {
            byte[] bytes = outputs.get(command);
            if (bytes == null) {
                throw new CommandException(command + ": not installed");
            }
            try {
                return new CommandOutput(command.toString(), StandardCharsets.UTF_8.newDecoder()
                        .decode(ByteBuffer.wrap(bytes)).toString());
            } catch (CharacterCodingException e) {
                throw new CommandException(command + ": printed text that is not UTF-8");
            }
        };
        DiscoveryFuzzing.discover(new ThunderboltPortSource("mac", runner, InterfaceSelection.rdmaOnly()),
                DiscoveryFuzzing.inputs(NAMES, given));
    }
}
