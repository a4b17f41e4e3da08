package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * packaging/homebrew/railmap.rb, which no Homebrew runs here: Ruby accepts it, it installs this
 * build's release archive (version and name), every file it installs is in that archive, and its
 * service says what launchd/io.railmap.railmapd.plist says, in the words of Homebrew's service DSL
 * (Homebrew/brew Library/Homebrew/service.rb, {@code Service#to_plist}).
 */
class HomebrewFormulaTest {
    private static final Path CHECKOUT = Path.of(System.getProperty("railmap.checkout")).toAbsolutePath().normalize();
    private static final Path FORMULA = CHECKOUT.resolve("packaging/homebrew/railmap.rb");
    private static final Path ARCHIVE = Path.of(System.getProperty("railmap.archive"));

    private static String formula() throws Exception {
        return Files.readString(FORMULA);
    }

    @Test
    void rubyAcceptsIt() throws Exception {
        Optional<String> why = Tools.missing("apt-get install ruby", "ruby");
        assumeTrue(why.isEmpty(), why.orElse(""));
        Commands.Result r = Commands.run(CHECKOUT, Map.of(), 60, "ruby", "-c", FORMULA.toString());
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out().strip()).isEqualTo("Syntax OK");
    }

    @Test
    void installsThisBuildsReleaseArchive() throws Exception {
        Matcher url = Pattern.compile("(?m)^  url \"([^\"]+)\"$").matcher(formula());
        assertThat(url.find()).as("a url line").isTrue();
        assertThat(url.group(1)).as("release v%s, archive %s", ReleaseArchiveTest.VERSION, ARCHIVE.getFileName())
                .endsWith("/v" + ReleaseArchiveTest.VERSION + "/" + ARCHIVE.getFileName());
        assertThat(ARCHIVE).isRegularFile();
        assertThat(formula()).containsPattern("(?m)^  sha256 \"[0-9a-f]{64}\"$").containsPattern("(?m)^  depends_on \"openjdk\"$");
    }

    @Test
    void everyFileItInstallsIsInTheArchive() throws Exception {
        String top = "railmap-" + ReleaseArchiveTest.VERSION + "/";
        Set<String> entries = Archive.entries(ARCHIVE).keySet();
        String install = formula().substring(formula().indexOf("  def install"), formula().indexOf("\n  end\n", formula().indexOf("  def install")));
        List<String> sources = new ArrayList<>();
        Matcher line = Pattern.compile("(?m)^.*\\.install (.*)$").matcher(install);
        while (line.find()) {
            // the quoted names left of any '=>' (right of it is the name installed as)
            Matcher name = Pattern.compile("\"([^\"]+)\"(\\s*=>\\s*\"[^\"]+\")?").matcher(line.group(1));
            while (name.find()) {
                sources.add(name.group(1));
            }
        }
        assertThat(sources).contains("bin", "lib", "man/man1/*.1.gz", "man/man8/railmapd.8.gz", "completion/_railmap",
                "config/railmapd.properties", "examples");
        for (String source : sources) {
            Pattern glob = Pattern.compile(Pattern.quote(top + source).replace("*", "\\E[^/]*\\Q") + "(/.*)?");
            assertThat(entries).as("the archive holds %s", source).anyMatch(e -> glob.matcher(e).matches());
        }
    }

    @Test
    void itsServiceIsTheLaunchdPlistsInHomebrewsWords() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Element dict = (Element) factory.newDocumentBuilder().parse(CHECKOUT.resolve("launchd/io.railmap.railmapd.plist").toFile())
                .getDocumentElement().getElementsByTagName("dict").item(0);
        String service = formula().substring(formula().indexOf("  service do"), formula().indexOf("\n  end\n", formula().indexOf("  service do")));

        // a launch daemon (root, at boot) started at load; Homebrew's run_at_load is true unless set otherwise
        assertThat(service).contains("require_root true").doesNotContain("run_at_load false");
        assertThat(value(dict, "RunAtLoad").getNodeName()).isEqualTo("true");
        // KeepAlive {SuccessfulExit: false}: restarted when it exits with an error
        assertThat(value((Element) value(dict, "KeepAlive"), "SuccessfulExit").getNodeName()).isEqualTo("false");
        assertThat(service).contains("keep_alive successful_exit: false");
        assertThat(service).contains("throttle_interval " + value(dict, "ThrottleInterval").getTextContent());
        assertThat(service).contains("process_type :" + value(dict, "ProcessType").getTextContent().toLowerCase());
        // one log for output and errors
        assertThat(value(dict, "StandardOutPath").getTextContent()).isEqualTo(value(dict, "StandardErrorPath").getTextContent());
        Matcher log = Pattern.compile("(?m)^    log_path (.+)$").matcher(service);
        assertThat(log.find()).isTrue();
        assertThat(service).contains("error_log_path " + log.group(1));
        // the same flags: the settings file and the API socket
        List<String> program = new ArrayList<>();
        NodeList strings = ((Element) value(dict, "ProgramArguments")).getElementsByTagName("string");
        for (int i = 1; i < strings.getLength(); i++) {
            program.add(strings.item(i).getTextContent());
        }
        assertThat(program).containsExactly("--config", "/etc/railmap/railmapd.properties", "--api-socket", "/var/run/railmapd.sock");
        assertThat(service).contains("run [opt_bin/\"railmapd\", \"--config\", etc/\"railmap/railmapd.properties\", \"--api-socket\", "
                + "\"/var/run/railmapd.sock\"]");
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
