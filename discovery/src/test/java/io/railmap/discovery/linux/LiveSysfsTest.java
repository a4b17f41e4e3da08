package io.railmap.discovery.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railmap.discovery.model.AssumedRdma;
import io.railmap.discovery.model.Discovery;
import io.railmap.discovery.model.InterfaceSelection;
import io.railmap.discovery.model.LocalPort;
import io.railmap.matrix.model.IpAddresses;
import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Discovery on this machine's own {@code /sys}, checked against what {@code ip -o link} and
 * {@code ip -o addr} print (addresses with their prefix lengths).
 * Runs wherever there is a Linux sysfs and iproute2; says why when skipped.
 */
class LiveSysfsTest {
    /** {@code 4: eth0@if5: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1400 ... state UP ... link/ether 02:fc:00:00:00:01 brd ...} */
    private static final Pattern IP_LINK = Pattern.compile(
            "^(\\d+): ([^:@\\s]+)(?:@\\S+)?: <([^>]*)> mtu (\\d+) .*? state (\\S+) .*?link/\\S+(?: ([0-9a-f:]+))?");

    /** {@code 2: eth0    inet 172.17.0.2/16 brd ... scope global eth0\ valid_lft ...}, {@code inet6 fe80::1/64} */
    private static final Pattern IP_ADDR = Pattern.compile("(?m)^\\d+: ([^:@\\s]+)(?:@\\S+)?\\s+inet6? ([0-9a-fA-F:.]+)/(\\d+)");

    private record IpLink(int ifindex, String name, List<String> flags, int mtu, String operstate, String address) {
    }

    @Test
    void findsWhatIpLinkListsForLoAndEth() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/sys/class/net")), "no /sys/class/net: not a Linux sysfs");
        Map<String, IpLink> expected = ipLinks();
        assumeTrue(expected != null, "ip -o link is not available");
        expected.keySet().removeIf(name -> !(name.equals("lo") || name.startsWith("eth")));
        assertThat(expected).as("ip -o link lists lo").containsKey("lo");

        Map<String, Map<String, Integer>> addresses = ipAddresses();
        Discovery found = SysfsPortSource.live("live", InterfaceSelection.parse("lo,eth*"), AssumedRdma.none()).discover();

        Map<String, LocalPort> plain = found.ports().stream()
                .filter(p -> p.port().kind() == PortKind.ETHERNET)
                .collect(Collectors.toMap(p -> p.port().netdev(), p -> p, (a, b) -> a, TreeMap::new));
        found.ports().stream().filter(p -> p.port().rdma().isPresent())
                .forEach(p -> expected.remove(p.port().netdev()));
        assertThat(found.skipped()).isEmpty();
        assertThat(plain.keySet()).isEqualTo(expected.keySet());
        for (IpLink link : expected.values()) {
            LocalPort port = plain.get(link.name());
            assertThat(port.ifindex()).as(link.name()).hasValue(link.ifindex());
            assertThat(port.mtu()).as(link.name()).hasValue(link.mtu());
            if (link.address() != null) {
                assertThat(port.mac()).as(link.name()).contains(link.address());
            }
            boolean lowerUp = link.flags().contains("LOWER_UP");
            assertThat(port.carrier()).as(link.name()).isEqualTo(lowerUp);
            boolean active = lowerUp && (link.operstate().equals("UP") || link.operstate().equals("UNKNOWN"));
            assertThat(port.port().state()).as(link.name()).isEqualTo(active ? PortState.ACTIVE : PortState.DOWN);
            assertThat(port.port().addressesKnown()).as(link.name()).isTrue();
            Map<String, Integer> listed = addresses.getOrDefault(link.name(), Map.of());
            assertThat(port.port().addresses()).as("addresses of %s", link.name())
                    .isEqualTo(IpAddresses.forPort("ip -o addr", listed.keySet()));
            assertThat(port.port().prefixLengths()).as("prefix lengths of %s", link.name()).isEqualTo(listed);
        }
        assertThat(plain.get("lo").port().addresses()).contains("127.0.0.1");
        assertThat(plain.get("lo").port().prefixLength("127.0.0.1")).contains(8);
    }

    /** @return netdev → the addresses {@code ip -o addr} lists for it, canonical, → their prefix lengths */
    private static Map<String, Map<String, Integer>> ipAddresses() throws InterruptedException, IOException {
        Process ip = new ProcessBuilder("ip", "-o", "addr").redirectErrorStream(true).start();
        String out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ip.waitFor(10, TimeUnit.SECONDS) && ip.exitValue() == 0).as("ip -o addr: %s", out).isTrue();
        Map<String, Map<String, Integer>> byNetdev = new TreeMap<>();
        Matcher m = IP_ADDR.matcher(out);
        while (m.find()) {
            byNetdev.computeIfAbsent(m.group(1), n -> new TreeMap<>())
                    .put(IpAddresses.canonical("ip -o addr", m.group(2)), Integer.parseInt(m.group(3)));
        }
        return byNetdev;
    }

    /** @return the links by name, or null when {@code ip} cannot be run */
    private static Map<String, IpLink> ipLinks() throws InterruptedException {
        String out;
        try {
            Process ip = new ProcessBuilder("ip", "-o", "link").redirectErrorStream(true).start();
            out = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!ip.waitFor(10, TimeUnit.SECONDS) || ip.exitValue() != 0) {
                return null;
            }
        } catch (IOException e) {
            return null;
        }
        Map<String, IpLink> links = new TreeMap<>();
        for (String line : out.split("\n")) {
            Matcher m = IP_LINK.matcher(line);
            if (m.find()) {
                links.put(m.group(2), new IpLink(Integer.parseInt(m.group(1)), m.group(2), List.of(m.group(3).split(",")),
                        Integer.parseInt(m.group(4)), m.group(5), m.group(6)));
            }
        }
        assertThat(links).as("lines of ip -o link understood by this test:%n%s", out).isNotEmpty();
        return links;
    }
}
