package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import picocli.CommandLine;

/** The service definitions shipped in systemd/ and launchd/ are valid and say what docs/service.md says. */
class ServiceUnitsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, out).isZero();
        return out;
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    /** The unit with ExecStart pointing at this checkout's launcher, as an installed copy would. */
    private Path installedUnit() throws IOException {
        String unit = Files.readString(ROOT.resolve("systemd/railmapd.service"))
                .replace("/opt/railmap/bin/railmapd", ROOT.resolve("bin/railmapd").toString());
        return Files.writeString(dir.resolve("railmapd.service"), unit);
    }

    @Test
    void systemdAcceptsTheUnit() throws Exception {
        assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed here");
        // --man=no: the unit's Documentation=man:railmapd(8) comes with the Debian package, not with a checkout
        // (.ci/run verifies the installed unit with its man page)
        String out = run(List.of("systemd-analyze", "verify", "--man=no", installedUnit().toString()));
        assertThat(out).as("systemd-analyze verify says nothing about a clean unit").isBlank();
    }

    @Test
    void theUnitIsHardened() throws Exception {
        assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed here");
        String out = run(List.of("systemd-analyze", "security", "--offline=yes", installedUnit().toString()));
        Matcher m = Pattern.compile("Overall exposure level for railmapd.service: ([0-9.]+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        // 0 is fully locked down, 10 fully exposed; systemd calls below 2 "OK"
        assertThat(Double.parseDouble(m.group(1))).isLessThan(2.0);
    }

    @Test
    void theUnitRestartsOnFailureAndTheShippedFlagsAreRailmapdFlags() throws Exception {
        String unit = Files.readString(ROOT.resolve("systemd/railmapd.service"));
        assertThat(unit).contains("Restart=on-failure", "EnvironmentFile=-/etc/railmap/railmapd.env", "NoNewPrivileges=yes",
                "ProtectSystem=strict", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK");
        String env = Files.readString(ROOT.resolve("systemd/railmapd.env"));
        Matcher opts = Pattern.compile("(?m)^RAILMAPD_OPTS=\"([^\"]*)\"").matcher(env);
        assertThat(opts.find()).isTrue();
        List<String> args = new ArrayList<>(List.of("--api-socket", "/run/railmap/railmapd.sock"));
        args.addAll(List.of(opts.group(1).trim().split("\\s+")));
        Railmapd railmapd = new Railmapd();
        new CommandLine(railmapd).parseArgs(args.toArray(String[]::new));
        assertThat(railmapd.daemonConfig().apiSocket()).contains(Path.of("/run/railmap/railmapd.sock"));
    }

    @Test
    void theSettingsTemplateNamesOnlyRailmapdFlags() throws Exception {
        // config/railmapd.properties, installed as /etc/railmap/railmapd.properties: every line commented out, as shipped;
        // with every '#key=value' line taken in, each key is a flag and each value one it accepts
        Path template = ROOT.resolve("config/railmapd.properties");
        Path shipped = Files.writeString(dir.resolve("shipped.properties"), Files.readString(template));
        assertThat(ConfigFile.read(shipped, new CommandLine(new Railmapd())).properties()).isEmpty();
        String uncommented = Files.readString(template).replaceAll("(?m)^#([a-z][a-z-]*=)", "$1");
        Path all = Files.writeString(dir.resolve("all.properties"), uncommented);
        Railmapd railmapd = new Railmapd();
        CommandLine cmd = new CommandLine(railmapd);
        ConfigFile file = ConfigFile.read(all, cmd);
        assertThat(file.properties().stringPropertyNames()).contains("interfaces", "cluster", "bind", "seeds", "cluster-key-file", "node", "api");
        cmd.setDefaultValueProvider(file.defaults());
        cmd.parseArgs();
        assertThat(railmapd.cluster).isEqualTo("railmap");
        assertThat(railmapd.seeds).isEqualTo("10.0.0.1,10.0.0.2");
        // the environment file names it
        assertThat(Files.readString(ROOT.resolve("systemd/railmapd.env"))).contains("--config /etc/railmap/railmapd.properties");
    }

    @Test
    void theLaunchdPlistStartsTheDaemonAndRestartsItOnFailure() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document plist = factory.newDocumentBuilder().parse(ROOT.resolve("launchd/io.railmap.railmapd.plist").toFile());
        Element dict = (Element) plist.getDocumentElement().getElementsByTagName("dict").item(0);

        assertThat(value(dict, "Label").getTextContent()).isEqualTo("io.railmap.railmapd");
        List<String> program = new ArrayList<>();
        NodeList strings = ((Element) value(dict, "ProgramArguments")).getElementsByTagName("string");
        for (int i = 0; i < strings.getLength(); i++) {
            program.add(strings.item(i).getTextContent());
        }
        assertThat(program).startsWith("/opt/railmap/bin/railmapd", "--config");
        Railmapd railmapd = new Railmapd();
        new CommandLine(railmapd).parseArgs(program.subList(1, program.size()).toArray(String[]::new));
        assertThat(value((Element) value(dict, "KeepAlive"), "SuccessfulExit").getNodeName()).isEqualTo("false");
        assertThat(value(dict, "RunAtLoad").getNodeName()).isEqualTo("true");
    }

    @Test
    void theLauncherExitsOnOutOfMemoryAndBoundsHeapAndFilesAndBothServicesRunIt() throws Exception {
        String launcher = Files.readString(ROOT.resolve("bin/railmapd"));
        assertThat(launcher).contains("-XX:+ExitOnOutOfMemoryError", "-Xmx128m", "-XX:-MaxFDLimit", "ulimit -n 8192");
        String unit = Files.readString(ROOT.resolve("systemd/railmapd.service"));
        assertThat(unit).containsPattern("(?m)^ExecStart=/opt/railmap/bin/railmapd ");
        String plist = Files.readString(ROOT.resolve("launchd/io.railmap.railmapd.plist"));
        assertThat(plist).contains("<string>/opt/railmap/bin/railmapd</string>");
    }

    @Test
    void bothServicesWaitLongerForAStopThanTheDaemonsOwnDeadline() throws Exception {
        Matcher unit = Pattern.compile("(?m)^TimeoutStopSec=([0-9]+)$").matcher(Files.readString(ROOT.resolve("systemd/railmapd.service")));
        assertThat(unit.find()).isTrue();
        assertThat(Long.parseLong(unit.group(1)) * 1000).isGreaterThan(StopDeadline.DEADLINE_MS);
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document plist = factory.newDocumentBuilder().parse(ROOT.resolve("launchd/io.railmap.railmapd.plist").toFile());
        Element dict = (Element) plist.getDocumentElement().getElementsByTagName("dict").item(0);
        assertThat(Long.parseLong(value(dict, "ExitTimeOut").getTextContent()) * 1000).isGreaterThan(StopDeadline.DEADLINE_MS);
    }

    /** The element that follows {@code <key>name</key>} in a plist dict. */
    private static Node value(Element dict, String key) {
        NodeList children = dict.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node n = children.item(i);
            if (n.getNodeName().equals("key") && n.getTextContent().equals(key)) {
                Node next = n.getNextSibling();
                while (next != null && next.getNodeType() != Node.ELEMENT_NODE) {
                    next = next.getNextSibling();
                }
                return next;
            }
        }
        throw new AssertionError("no key " + key + " in the plist");
    }
}
