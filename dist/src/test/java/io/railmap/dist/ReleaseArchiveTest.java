package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it ({@code dist/target/railmap-VERSION.tar.gz}, made by
 * {@code ./mvnw package}; this runs in {@code verify}): what it holds, and that its launchers run
 * from wherever it is unpacked, with the JDK running this test and nothing of the checkout.
 */
class ReleaseArchiveTest {
    static final String VERSION = System.getProperty("railmap.version");
    private static final Path ARCHIVE = Path.of(System.getProperty("railmap.archive"));
    private static final Path CHECKOUT = Path.of(System.getProperty("railmap.checkout")).toAbsolutePath().normalize();
    private static final String TOP = "railmap-" + VERSION + "/";
    /** This test's JDK as JAVA_HOME, and no RAILMAP_JAVA_OPTS: the launchers as a user with a JDK runs them. */
    static final Map<String, String> WITH_JDK = Map.of("JAVA_HOME", System.getProperty("java.home"));

    private static Map<String, TarArchiveEntry> entries = new HashMap<>();

    @BeforeAll
    static void list() throws IOException {
        entries = Archive.entries(ARCHIVE);
    }

    /** @return those of {@code names} (under the top directory) that the archive does not hold */
    private static List<String> missing(String... names) {
        return Stream.of(names).filter(n -> !entries.containsKey(TOP + n)).toList();
    }

    @Test
    void everythingSitsUnderOneDirectoryNamedForTheVersion() {
        assertThat(entries.keySet()).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith(TOP));
        assertThat(entries.keySet()).noneMatch(name -> name.contains("/target/") || name.endsWith(".jsa") || name.contains(".."));
    }

    @Test
    void holdsTheLaunchersExecutableAndTheirRuntimeChooserReadable() {
        for (String launcher : List.of("bin/railmap", "bin/railmapd")) {
            TarArchiveEntry e = entries.get(TOP + launcher);
            assertThat(e).as(launcher).isNotNull();
            assertThat(e.isFile()).as(launcher + " is a regular file").isTrue();
            assertThat(e.getMode() & 0777).as(launcher + "'s mode").isEqualTo(0755);
        }
        assertThat(entries.get(TOP + "bin/pick-java.sh").getMode() & 0777).as("sourced, not run").isEqualTo(0644);
    }

    @Test
    void holdsTheServiceFilesTheSettingsTemplateReadmeAndTheDocumentsItLinksTo() {
        assertThat(missing("README.md", "systemd/railmapd.service", "systemd/railmapd.env", "config/railmapd.properties",
                "launchd/io.railmap.railmapd.plist", "daemon/PROBE.md", "daemon/CLUSTER.md", "docs/install.md", "examples/two-crossed.json",
                "examples/snapshots/two-macs-crossed.json")).isEmpty();
        assertThat(entries.get(TOP + "systemd/railmapd.service").getMode() & 0777).isEqualTo(0644);
    }

    @Test
    void holdsManPagesAndCompletionButNoRuntime() {
        assertThat(missing("man/man1/railmap.1.gz", "man/man1/railmap-matrix.1.gz", "man/man1/railmap-lab-up.1.gz", "man/man8/railmapd.8.gz",
                "completion/railmap.bash", "completion/railmapd.bash", "completion/_railmap", "completion/_railmapd")).isEmpty();
        assertThat(entries.keySet()).as("the runtime is the self-contained archive's").noneMatch(n -> n.startsWith(TOP + "runtime/"));
    }

    @Test
    void holdsEveryJarTheDaemonAndTheCommandLineRunWith() throws IOException {
        List<String> jars = entries.keySet().stream().filter(n -> n.startsWith(TOP + "lib/")).map(n -> n.substring((TOP + "lib/").length()))
                .filter(n -> !n.isEmpty()).toList();
        assertThat(jars).contains("railmap-daemon-" + VERSION + ".jar", "railmap-cli-" + VERSION + ".jar",
                "railmap-matrix-" + VERSION + ".jar", "railmap-lab-" + VERSION + ".jar");
        // what `./mvnw package` copies beside each module's jar for the checkout's launchers
        for (String module : List.of("daemon", "cli")) {
            try (Stream<Path> lib = Files.list(CHECKOUT.resolve(module).resolve("target").resolve("lib"))) {
                assertThat(jars).as("lib/ against " + module + "/target/lib")
                        .containsAll(lib.map(p -> p.getFileName().toString()).toList());
            }
        }
        assertThat(jars).allMatch(n -> n.endsWith(".jar"))
                .as("the build steps' own libraries stay out").noneMatch(n -> n.startsWith("asciidoctorj") || n.startsWith("jruby")
                        || n.startsWith("picocli-codegen"));
    }

    @Test
    void runsFromWhereverItIsUnpackedThroughALink(@TempDir Path temp) throws Exception {
        Path opt = Files.createDirectories(temp.resolve("opt"));
        Archive.unpack(ARCHIVE, opt);
        Path home = opt.resolve("railmap-" + VERSION);
        Path links = Files.createDirectories(temp.resolve("usr-local-bin"));
        Files.createSymbolicLink(links.resolve("railmap"), home.resolve("bin/railmap"));
        Files.createSymbolicLink(links.resolve("railmapd"), home.resolve("bin/railmapd"));
        Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));

        String java = "Java " + Runtime.version() + " (JAVA_HOME: " + System.getProperty("java.home") + ")";
        Commands.Result cli = Commands.run(elsewhere, WITH_JDK, 60, links.resolve("railmap").toString(), "--version");
        assertThat(cli.code()).as(cli.out()).isZero();
        assertThat(cli.out().strip()).isEqualTo("railmap " + VERSION + "\n" + java);

        Commands.Result daemon = Commands.run(elsewhere, WITH_JDK, 60, links.resolve("railmapd").toString(), "--version");
        assertThat(daemon.code()).as(daemon.out()).isZero();
        assertThat(daemon.out().strip()).isEqualTo("railmapd " + VERSION + "\n" + java);

        // a command that needs the core, JSON and graph libraries: the whole class path is there
        Commands.Result matrix = Commands.run(elsewhere, WITH_JDK, 60, links.resolve("railmap").toString(), "matrix", "--snapshot",
                home.resolve("examples/snapshots/two-macs-crossed.json").toString(), "--hosts", "studio-a,studio-b", "--format", "jaccl");
        assertThat(matrix.code()).as(matrix.out()).isZero();
        assertThat(matrix.out()).contains("rdma_en");
    }

    @Test
    void aLauncherWithoutItsJarsSaysWhatToDo(@TempDir Path temp) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bare/bin"));
        Files.copy(CHECKOUT.resolve("bin/railmapd"), bin.resolve("railmapd"));
        bin.resolve("railmapd").toFile().setExecutable(true);
        Commands.Result r = Commands.run(temp, WITH_JDK, 60, bin.resolve("railmapd").toString(), "--version");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out().strip()).startsWith("railmapd: no jars in ").contains("unpack a release there").doesNotContain("\n");
    }
}
