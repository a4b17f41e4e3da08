package io.railmap.discovery.macos;

import static io.railmap.discovery.macos.Fixtures.capture;
import static io.railmap.discovery.macos.Fixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SkippedPort;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import io.railmap.matrix.model.Thunderbolt;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Discovery on the real macOS captures in {@code fixtures/macos}, replayed from capture directories. */
class ThunderboltPortSourceTest {
    private static final String M5_PROFILE = read("macos/system_profiler_thunderbolt_m5max_macbookpro.json");
    private static final String M3_PROFILE = read("macos/system_profiler_thunderbolt_m3ultra_two_cables_dock_trimmed.json");
    private static final String M4_PROFILE = read("macos/system_profiler_thunderbolt_m4max_two_cables_trimmed.json");

    @TempDir
    Path dir;

    private Discovery discover(String node, Path capture, String selection) throws DiscoveryException {
        return new ThunderboltPortSource(node, new CaptureDirectoryRunner(capture), InterfaceSelection.parse(selection))
                .discover();
    }

    private Discovery discover(String node, Path capture) throws DiscoveryException {
        return discover(node, capture, "");
    }

    private static Map<Integer, String> netdevByReceptacle(Discovery found) {
        return found.ports().stream().collect(Collectors.toMap(
                p -> p.port().thunderbolt().orElseThrow().receptacle(), p -> p.port().netdev(), (a, b) -> a, TreeMap::new));
    }

    private static Port port(Discovery found, String netdev) {
        return found.ports().stream().map(LocalPort::port).filter(p -> p.netdev().equals(netdev)).findFirst()
                .orElseThrow(() -> new AssertionError("no port " + netdev + " in " + found.ports()));
    }

    /** The note of a capture without {@code ifconfig.txt}. */
    private static String noIfconfig(Path capture) {
        return "addresses and bridges unknown: capture file " + capture.resolve("ifconfig.txt")
                + " does not exist (the output of ifconfig -a)";
    }

    private static Thunderbolt tb(Discovery found, String netdev) {
        return port(found, netdev).thunderbolt().orElseThrow();
    }

    @Test
    void m5MaxMapsReceptaclesThroughNetworksetupNotByNumber() throws Exception {
        Path capture = capture(dir, M5_PROFILE, read("macos/networksetup_m5max_macbookpro.txt"), null, null);

        Discovery found = discover("mbp", capture);

        assertThat(found.skipped()).isEmpty();
        assertThat(netdevByReceptacle(found)).containsExactly(Map.entry(1, "en1"), Map.entry(2, "en6"), Map.entry(3, "en2"));
        Port en1 = port(found, "en1");
        assertThat(en1.kind()).isEqualTo(PortKind.THUNDERBOLT);
        assertThat(en1.rateGbps()).contains(80.0);
        assertThat(en1.state()).isEqualTo(PortState.ACTIVE);
        assertThat(en1.rdma()).isEmpty();
        assertThat(en1.thunderbolt()).contains(new Thunderbolt(
                Optional.of("817DCFA4-B481-4100-80FC-91C7AA969F0B"), Optional.of("28CA4C30-A263-4C55-B302-953416D0B209"),
                1, Optional.of(80.0), false, Optional.of("Mac Studio")));
        assertThat(tb(found, "en1").rdmaCapable()).isTrue();
        LocalPort local = found.ports().stream().filter(p -> p.port().netdev().equals("en1")).findFirst().orElseThrow();
        assertThat(local.carrier()).isTrue();
        assertThat(local.mac()).contains("36:79:2c:66:09:80");
        assertThat(local.mtu()).isEmpty();
        Port en6 = port(found, "en6");
        assertThat(en6.state()).isEqualTo(PortState.DOWN);
        assertThat(en6.rateGbps()).isEmpty();
        assertThat(tb(found, "en6").domainUuid()).contains("200E23D3-C921-44E0-95F7-55144AC251CC");
        assertThat(tb(found, "en6").peerName()).isEmpty();
    }

    @Test
    void m3UltraSeesTheDirectCableAndTheOneThroughTheDock() throws Exception {
        Path capture = capture(dir, M3_PROFILE, Fixtures.networksetupM3Ultra(), null, null);

        Discovery found = discover("m3", capture);

        assertThat(found.skipped()).isEmpty();
        assertThat(netdevByReceptacle(found)).containsExactly(Map.entry(1, "en2"), Map.entry(2, "en3"),
                Map.entry(3, "en4"), Map.entry(4, "en5"), Map.entry(5, "en6"), Map.entry(6, "en7"));
        Thunderbolt direct = tb(found, "en7");
        assertThat(direct.receptacle()).isEqualTo(6);
        assertThat(direct.linkSpeedGbps()).contains(80.0);
        assertThat(direct.behindHub()).isFalse();
        assertThat(direct.peerName()).contains("MacBook Pro");
        assertThat(direct.peerDomainUuid()).as("trimmed capture has no domain_uuid_key").isEmpty();
        assertThat(direct.rdmaCapable()).isTrue();
        Thunderbolt docked = tb(found, "en4");
        assertThat(docked.receptacle()).isEqualTo(3);
        assertThat(docked.linkSpeedGbps()).contains(40.0);
        assertThat(docked.behindHub()).isTrue();
        assertThat(docked.peerName()).contains("MacBook Pro");
        assertThat(docked.rdmaCapable()).isFalse();
        assertThat(port(found, "en4").state()).isEqualTo(PortState.ACTIVE);
        // receptacle 2: a drive enclosure at 40 Gb/s, no peer host
        Port enclosure = port(found, "en3");
        assertThat(enclosure.thunderbolt().orElseThrow().peerName()).isEmpty();
        assertThat(enclosure.thunderbolt().orElseThrow().linkSpeedGbps()).contains(40.0);
        assertThat(enclosure.state()).isEqualTo(PortState.DOWN);
        assertThat(found.ports().stream().filter(LocalPort::carrier).map(p -> p.port().netdev()))
                .containsExactlyInAnyOrder("en4", "en7");
    }

    @Test
    void m4MaxSeesBothCablesDirectlyAtTheirOwnSpeeds() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, null);

        Discovery found = discover("m4", capture);

        assertThat(found.skipped()).isEmpty();
        assertThat(netdevByReceptacle(found)).containsExactly(Map.entry(1, "en1"), Map.entry(2, "en2"), Map.entry(3, "en3"));
        assertThat(tb(found, "en2").linkSpeedGbps()).contains(80.0);
        assertThat(tb(found, "en2").behindHub()).isFalse();
        assertThat(tb(found, "en2").rdmaCapable()).isTrue();
        assertThat(tb(found, "en3").linkSpeedGbps()).contains(40.0);
        assertThat(tb(found, "en3").behindHub()).isFalse();
        assertThat(tb(found, "en3").rdmaCapable()).isFalse();
        assertThat(tb(found, "en3").peerName()).contains("Mac Studio");
        assertThat(port(found, "en1").state()).isEqualTo(PortState.DOWN);
    }

    /** The M3 Ultra and M4 Max captures are the two ends of the same two cables. */
    @Test
    void bothEndsOfTheTwoCablesAgree() throws Exception {
        Discovery m3 = discover("m3", capture(dir.resolve("m3"), M3_PROFILE, Fixtures.networksetupM3Ultra(), null, null));
        Discovery m4 = discover("m4", capture(dir.resolve("m4"), M4_PROFILE, Fixtures.networksetupM4Max(), null, null));

        assertThat(linkedSpeeds(m3)).isEqualTo(linkedSpeeds(m4)).containsExactly(40.0, 80.0);
        assertThat(rdmaCapable(m3)).containsExactly("en7");
        assertThat(rdmaCapable(m4)).containsExactly("en2");
        assertThat(m3.ports()).allSatisfy(p -> p.port().thunderbolt().orElseThrow().peerName()
                .ifPresent(name -> assertThat(name).isEqualTo("MacBook Pro")));
        assertThat(m4.ports()).allSatisfy(p -> p.port().thunderbolt().orElseThrow().peerName()
                .ifPresent(name -> assertThat(name).isEqualTo("Mac Studio")));
    }

    private static List<Double> linkedSpeeds(Discovery found) {
        return found.ports().stream().map(p -> p.port().thunderbolt().orElseThrow())
                .filter(t -> t.peerName().isPresent()).map(t -> t.linkSpeedGbps().orElseThrow()).sorted().toList();
    }

    private static List<String> rdmaCapable(Discovery found) {
        return found.ports().stream().filter(p -> p.port().thunderbolt().orElseThrow().rdmaCapable())
                .map(p -> p.port().netdev()).toList();
    }

    /**
     * The Mac mini's networksetup lists only "Thunderbolt 1" (its other links were absent in the
     * field). Paired here with the M4 Max's three receptacles: the two without a hardware port are
     * skipped, the linked one included.
     */
    @Test
    void aReceptacleWithoutHardwarePortIsSkippedWithTheReason() throws Exception {
        Path capture = capture(dir, M4_PROFILE, read("macos/networksetup_macmini.txt"), null, null);

        Discovery found = discover("mini", capture);

        assertThat(netdevByReceptacle(found)).containsExactly(Map.entry(1, "en2"));
        assertThat(found.skipped()).containsExactlyInAnyOrder(
                new SkippedPort("receptacle 2", "no hardware port \"Thunderbolt 2\" in networksetup -listallhardwareports"),
                new SkippedPort("receptacle 3", "no hardware port \"Thunderbolt 3\" in networksetup -listallhardwareports"));
    }

    /**
     * ibv_devinfo_m3ultra_notes.txt: rdma_ctl says enabled and the (abbreviated) ibv_devinfo lists
     * rdma_en3 as PORT_ACTIVE. ibv_devinfo decides: en3 gets rdma_en3 and its state, though on the
     * M3 Ultra capture only a drive enclosure is linked to that receptacle; the others get no RDMA
     * device, as ibv_devinfo does not list theirs.
     */
    @Test
    void ibvDevinfoNamesTheRdmaDevicesAndGivesTheirState() throws Exception {
        String notes = read("macos/ibv_devinfo_m3ultra_notes.txt");
        String ibvDevinfo = Fixtures.section(notes, "### ibv_devinfo", "### ").replace("```\n", "");
        String rdmaCtl = Fixtures.section(notes, "### rdma_ctl status", "### ").replace("```\n", "");
        Path capture = capture(dir, M3_PROFILE, Fixtures.networksetupM3Ultra(), ibvDevinfo, rdmaCtl);

        Discovery found = discover("m3", capture);

        assertThat(port(found, "en3").rdma()).contains("rdma_en3");
        assertThat(port(found, "en3").state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(found, "en3").rdma()).contains("rdma_en3");
        assertThat(found.ports()).filteredOn(p -> !p.port().netdev().equals("en3"))
                .allSatisfy(p -> assertThat(p.port().rdma()).isEmpty());
        assertThat(port(found, "en7").state()).isEqualTo(PortState.ACTIVE);
    }

    @Test
    void withoutIbvDevinfoRdmaCtlEnabledNamesRdmaEnXAndDisabledNamesNone() throws Exception {
        Discovery enabled = discover("m4", capture(dir.resolve("on"), M4_PROFILE, Fixtures.networksetupM4Max(), null, "enabled\n"));
        Discovery disabled = discover("m4", capture(dir.resolve("off"), M4_PROFILE, Fixtures.networksetupM4Max(), null, "disabled\n"));
        Discovery odd = discover("m4", capture(dir.resolve("odd"), M4_PROFILE, Fixtures.networksetupM4Max(), null, "rdma_ctl: command not found\n"));

        assertThat(enabled.ports()).extracting(p -> p.port().rdma().orElseThrow())
                .containsExactly("rdma_en1", "rdma_en2", "rdma_en3");
        assertThat(port(enabled, "en2").state()).isEqualTo(PortState.ACTIVE);
        assertThat(port(enabled, "en1").state()).isEqualTo(PortState.DOWN);
        assertThat(disabled.ports()).allSatisfy(p -> assertThat(p.port().rdma()).isEmpty());
        assertThat(odd.ports()).hasSize(3).allSatisfy(p -> assertThat(p.port().rdma()).isEmpty());
        assertThat(enabled.rdmaEnabled()).contains(true);
        assertThat(disabled.rdmaEnabled()).contains(false);
        assertThat(odd.rdmaEnabled()).isEmpty();
    }

    /** With a usable ibv_devinfo, rdma_ctl still tells whether RDMA is on; without it the state is unknown, and noted. */
    @Test
    void rdmaCtlTellsWhetherRdmaIsOnWhateverIbvDevinfoSays() throws Exception {
        String verbs = "hca_id:\trdma_en2\n\tport:\t1\n\t\tstate:\tPORT_ACTIVE (4)\n";
        Discovery on = discover("m4", capture(dir.resolve("on"), M4_PROFILE, Fixtures.networksetupM4Max(), verbs, "enabled\n"));
        Path unknownCapture = capture(dir.resolve("unknown"), M4_PROFILE, Fixtures.networksetupM4Max(), verbs, null);
        Discovery unknown = discover("m4", unknownCapture);

        assertThat(on.rdmaEnabled()).contains(true);
        assertThat(unknown.rdmaEnabled()).isEmpty();
        assertThat(port(unknown, "en2").rdma()).contains("rdma_en2");
        assertThat(unknown.notes()).contains("RDMA state unknown: capture file " + unknownCapture.resolve("rdma_ctl.txt")
                + " does not exist (the output of rdma_ctl status)");
    }

    /**
     * Addresses and bridges from ifconfig: Apple TN3205's {@code ifconfig en2} (its link-local IPv4 and
     * IPv6 addresses) and {@code ifconfig bridge0} (members en2-en4), with the M4 Max capture whose
     * Thunderbolt ports are en1-en3. en2 has both; en3 is bridged but has no block of its own in the
     * excerpt, so its addresses are unknown, with a note; en1 is neither.
     */
    @Test
    void ifconfigGivesEachPortItsAddressesWithoutZoneAndItsBridge() throws Exception {
        String tn3205 = read("macos/ibv_devinfo_tn3205.txt");
        String ifconfig = Fixtures.section(tn3205, "% ifconfig en2", "% ") + Fixtures.section(tn3205, "% ifconfig bridge0", "## ");
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, "enabled\n", ifconfig);

        Discovery found = discover("m4", capture);

        assertThat(port(found, "en2").addresses()).containsExactly("169.254.205.255", "fe80::1021:1bac:fe1:b5e3");
        assertThat(port(found, "en2").ipv4()).containsExactly("169.254.205.255");
        assertThat(port(found, "en2").addressesKnown()).isTrue();
        assertThat(port(found, "en2").bridge()).contains("bridge0");
        assertThat(port(found, "en3").bridge()).contains("bridge0");
        assertThat(port(found, "en3").addressesKnown()).isFalse();
        assertThat(port(found, "en1").bridge()).isEmpty();
        assertThat(found.notes()).contains("port rdma_en3/1: addresses unknown: " + capture.resolve("ifconfig.txt")
                + " has no single block for en3");
    }

    /** The whole ifconfig -a of a Mac whose Thunderbolt ports sit in bridge0 with no address of their own. */
    @Test
    void thunderboltPortsInTheBridgeHaveNoAddressesOfTheirOwn() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, "disabled\n",
                read("macos/ifconfig_a_intel_mac_thunderbolt_bridge0.txt"));

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).hasSize(3).allSatisfy(p -> {
            assertThat(p.port().bridge()).contains("bridge0");
            assertThat(p.port().addressesKnown()).isTrue();
            assertThat(p.port().addresses()).isEmpty();
        });
        assertThat(found.rdmaEnabled()).contains(false);
    }

    /** --assume-rdma: with RDMA off, the selected Thunderbolt netdevs get rdma_enX all the same; the others none. */
    @Test
    void assumedRdmaNamesSelectedNetdevsWithoutADevice() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, "disabled\n");

        Discovery found = new ThunderboltPortSource("m4", new CaptureDirectoryRunner(capture), InterfaceSelection.rdmaOnly(),
                AssumedRdma.parse("en*,!en3")).discover();

        assertThat(found.ports()).extracting(p -> p.port().rdma().orElse("-")).containsExactly("rdma_en1", "rdma_en2", "-");
    }

    /** ibv_devices output saved where ibv_devinfo belongs lists no hca_id: it is not used. */
    @Test
    void unusableIbvDevinfoFallsBackToRdmaCtl() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), read("macos/ibv_devices_m3ultra.txt"), "enabled\n");

        Discovery found = discover("m4", capture);

        assertThat(found.skipped()).isEmpty();
        assertThat(port(found, "en2").rdma()).contains("rdma_en2");
        assertThat(port(found, "en2").state()).isEqualTo(PortState.ACTIVE);
    }

    @Test
    void anExcludeEntryDropsAThunderboltPortByNetdevOrRdmaDevice() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, "enabled\n");

        Discovery found = discover("m4", capture, "!en3,!rdma_en1");

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en2");
        assertThat(found.skipped()).extracting(SkippedPort::port).containsExactlyInAnyOrder("receptacle 1", "receptacle 3");
    }

    /** system_profiler_thunderbolt_text_partial.txt: output of the command without -json. */
    @Test
    void systemProfilerTextInsteadOfJsonFailsNamingTheFile() {
        Path capture = capture(dir, read("macos/system_profiler_thunderbolt_text_partial.txt"),
                read("macos/networksetup_macmini.txt"), null, null);

        assertThatThrownBy(() -> discover("mini", capture))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageStartingWith(capture.resolve("system_profiler.json") + ": not valid JSON (line 1");
    }

    @Test
    void jsonWithoutTheThunderboltArrayFails() {
        Path capture = capture(dir, "{\"SPUSBDataType\": []}", read("macos/networksetup_macmini.txt"), null, null);

        assertThatThrownBy(() -> discover("mini", capture))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining("no \"SPThunderboltDataType\" array");
    }

    /** A line of another program's output inside one block costs the receptacle mapped to that block only. */
    @Test
    void garbageInOneNetworksetupBlockSkipsOnlyItsReceptacleNamingTheFileAndLine() throws Exception {
        String networksetup = Fixtures.networksetupM4Max().replace("Device: en3", "Device: en3\n-bash: networksetup: command not found");
        Path capture = capture(dir, M4_PROFILE, networksetup, null, null);

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en1", "en2");
        assertThat(found.skipped()).singleElement().satisfies(s -> {
            assertThat(s.port()).isEqualTo("receptacle 3");
            assertThat(s.reason()).startsWith("hardware port \"Thunderbolt 3\": " + capture.resolve("networksetup.txt") + ": line ")
                    .endsWith(" \"-bash: networksetup: command not found\" is not a \"Key: value\" line of networksetup"
                            + " -listallhardwareports");
        });
    }

    @Test
    void networksetupWithoutAnyHardwarePortFailsNamingTheFile() {
        Path capture = capture(dir, M4_PROFILE, "-bash: networksetup: command not found\n", null, null);

        assertThatThrownBy(() -> discover("m4", capture))
                .isInstanceOf(DiscoveryException.class)
                .hasMessage(capture.resolve("networksetup.txt") + ": no \"Hardware Port:\" line");
    }

    @Test
    void aMissingRequiredCaptureFileFailsNamingIt() {
        Path capture = capture(dir, M4_PROFILE, null, null, null);

        assertThatThrownBy(() -> discover("m4", capture))
                .isInstanceOf(DiscoveryException.class)
                .hasMessageContaining(capture.resolve("networksetup.txt").toString())
                .hasMessageContaining("networksetup -listallhardwareports");
    }

    /** An odd receptacle number skips its bus; an odd speed, as the 401-digit one seen, only drops the speed. */
    @Test
    void oddBusValuesSkipOnlyThatReceptacleOrDropOnlyThatField() throws Exception {
        String profile = M4_PROFILE
                .replace("\"receptacle_id_key\": \"1\"", "\"receptacle_id_key\": \"one\"")
                .replace("\"current_speed_key\": \"40 Gb/s\"", "\"current_speed_key\": \"" + "4".repeat(401) + " Gb/s\"");
        Path capture = capture(dir, profile, Fixtures.networksetupM4Max(), null, null);

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en2", "en3");
        assertThat(tb(found, "en3").linkSpeedGbps()).isEmpty();
        assertThat(tb(found, "en3").peerName()).contains("Mac Studio");
        assertThat(found.skipped()).containsExactly(new SkippedPort("receptacle one", capture.resolve("system_profiler.json")
                + ": bus \"thunderboltusb4_bus_0\": receptacle_id_key \"one\" is not a receptacle number (1 to 9999)"));
        assertThat(found.notes()).containsExactly("no RDMA devices named: capture file " + capture.resolve("ibv_devinfo.txt")
                + " does not exist (the output of ibv_devinfo -v); capture file " + capture.resolve("rdma_ctl.txt")
                + " does not exist (the output of rdma_ctl status)", noIfconfig(capture),
                "port en3: link speed unknown: " + capture.resolve("system_profiler.json")
                + ": bus \"thunderboltusb4_bus_2\": current_speed_key \"" + "4".repeat(64) + "…(342 more)\" is not a speed such as"
                + " \"80 Gb/s\"");
    }

    /** Two buses claiming receptacle 1: neither is taken, and each reason names both. */
    @Test
    void twoBusesClaimingOneReceptacleAreBothSkipped() throws Exception {
        String profile = M4_PROFILE.replace("\"receptacle_id_key\": \"3\"", "\"receptacle_id_key\": \"1\"");
        Path capture = capture(dir, profile, Fixtures.networksetupM4Max(), null, null);

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).extracting(p -> p.port().netdev()).containsExactly("en2");
        String reason = capture.resolve("system_profiler.json") + ": receptacle 1 is claimed by 2 buses (\"thunderboltusb4_bus_2\","
                + " \"thunderboltusb4_bus_0\"): none of them is reported";
        assertThat(found.skipped()).containsExactly(new SkippedPort("receptacle 1", reason), new SkippedPort("receptacle 1", reason));
    }

    /** An odd state line in ibv_devinfo costs the port of that device only, and names the line. */
    @Test
    void anOddIbvDevinfoStateSkipsOnlyThatDevicesPort() throws Exception {
        String verbs = "hca_id:\trdma_en1\n\tport:\t1\n\t\tstate:\tPORT_DOWN (1)\n"
                + "hca_id:\trdma_en2\n\tport:\t1\n\t\tstate:\tPORT_ACTIVE (4)\n"
                + "hca_id:\trdma_en3\n\tport:\t1\n\t\tstate:\tPORT_ACTIVE (\u001b[31m4)\n";
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), verbs, "enabled\n");

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).extracting(p -> p.port().rdma().orElse(p.port().netdev())).containsExactly("rdma_en1", "rdma_en2");
        assertThat(port(found, "en2").state()).isEqualTo(PortState.ACTIVE);
        assertThat(found.skipped()).containsExactly(new SkippedPort("receptacle 3", capture.resolve("ibv_devinfo.txt")
                + ": line 9 \"state:\\tPORT_ACTIVE (\\x1b[31m4)\": not a port state such as \"PORT_ACTIVE (4)\""));
        assertThat(found.notes()).containsExactly(noIfconfig(capture));
    }

    /** ibv_devinfo -v's limits go on the port of their device; a bad limit line is a note on that port, the port kept. */
    @Test
    void ibvDevinfoVerboseGivesEachPortItsDevicesLimits() throws Exception {
        String mac = read("macos/ibv_devinfo_v_limits_rdma_en2_pd_notes.txt").replace("```text\n", "").replace("```\n", "");
        String verbs = mac + "\thca_id:\trdma_en1\n\tmax_qp:\t\t\t\televen\n\tport:\t1\n\t\tstate:\tPORT_DOWN (1)\n";
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), verbs, "enabled\n");

        Discovery found = discover("m4", capture);

        assertThat(port(found, "en2").rdmaLimits()).isEqualTo(io.railmap.matrix.model.RdmaLimits.of(11, 11, 100, null));
        assertThat(port(found, "en1").rdmaLimits()).isEmpty();
        assertThat(port(found, "en1").rdma()).contains("rdma_en1");
        assertThat(found.notes()).anySatisfy(n -> assertThat(n).contains(capture.resolve("ibv_devinfo.txt") + ": line 7",
                "not a count from 0 to 2147483647; max_qp left out"));
    }

    /** rdma_ctl's output is shown escaped and cut in the note that says no RDMA device is named. */
    @Test
    void garbageFromRdmaCtlIsNotedEscaped() throws Exception {
        Path capture = capture(dir, M4_PROFILE, Fixtures.networksetupM4Max(), null, "\u001b]0;x\u0007" + "y".repeat(100));

        Discovery found = discover("m4", capture);

        assertThat(found.ports()).hasSize(3).allSatisfy(p -> assertThat(p.port().rdma()).isEmpty());
        assertThat(found.notes()).hasSize(2).first().asString()
                .endsWith(capture.resolve("rdma_ctl.txt") + ": expected \"enabled\" or \"disabled\", found \"\\x1b]0;x\\x07"
                        + "y".repeat(58) + "…(42 more)\"");
    }

    @Test
    void aMissingCaptureDirectoryIsRejected() {
        assertThatThrownBy(() -> new CaptureDirectoryRunner(dir.resolve("none")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("none");
    }
}
