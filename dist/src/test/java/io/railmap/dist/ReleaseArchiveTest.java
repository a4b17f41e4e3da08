package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it ({@code dist/target/railmap-VERSION.tar.gz}, made by
 * {@code ./mvnw package}; this runs in {@code verify}): what it holds, and that its launchers run
 * from wherever it is unpacked, with the JDK running this test and nothing of the checkout.
 */
class ReleaseArchiveTest {
    private static final String VERSION = System.getProperty("railmap.version");
    private static final Path ARCHIVE = Path.of(System.getProperty("railmap.archive"));
    private static final Path CHECKOUT = Path.of(System.getProperty("railmap.checkout")).toAbsolutePath().normalize();
    private static final String TOP = "railmap-" + VERSION + "/";

    /** Entry name → entry, as the archive lists them. */
    private static final Map<String, TarArchiveEntry> ENTRIES = new HashMap<>();
    private static final List<String> NAMES = new ArrayList<>();

    @BeforeAll
    static void list() throws IOException {
        assertThat(ARCHIVE).as("the release archive (made by ./mvnw package)").isRegularFile();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(ARCHIVE));
             TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                NAMES.add(e.getName());
                ENTRIES.put(e.getName(), e);
            }
        }
    }

    @Test
    void everythingSitsUnderOneDirectoryNamedForTheVersionAndNothingTwice() {
        assertThat(NAMES).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith(TOP));
        assertThat(NAMES).doesNotHaveDuplicates();
        assertThat(NAMES).noneMatch(name -> name.contains("/target/") || name.endsWith(".jsa") || name.contains(".."));
    }

    @Test
    void holdsTheLaunchersExecutable() {
        for (String launcher : List.of("bin/railmap", "bin/railmapd")) {
            TarArchiveEntry e = ENTRIES.get(TOP + launcher);
            assertThat(e).as(launcher).isNotNull();
            assertThat(e.isFile()).as(launcher + " is a regular file").isTrue();
            assertThat(e.getMode() & 0777).as(launcher + "'s mode").isEqualTo(0755);
        }
    }

    @Test
    void holdsTheServiceFilesReadmeAndTheDocumentsItLinksTo() {
        assertThat(ENTRIES).containsKeys(TOP + "README.md", TOP + "systemd/railmapd.service", TOP + "systemd/railmapd.env",
                TOP + "launchd/io.railmap.railmapd.plist", TOP + "daemon/PROBE.md", TOP + "daemon/CLUSTER.md",
                TOP + "examples/two-crossed.json", TOP + "examples/snapshots/two-macs-crossed.json");
        assertThat(ENTRIES.get(TOP + "systemd/railmapd.service").getMode() & 0777).isEqualTo(0644);
    }

    @Test
    void holdsEveryJarTheDaemonAndTheCommandLineRunWith() throws IOException {
        List<String> jars = NAMES.stream().filter(n -> n.startsWith(TOP + "lib/")).map(n -> n.substring((TOP + "lib/").length()))
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
        assertThat(jars).allMatch(n -> n.endsWith(".jar"));
    }

    @Test
    void runsFromWhereverItIsUnpackedThroughALink(@TempDir Path temp) throws Exception {
        Path opt = Files.createDirectories(temp.resolve("opt"));
        assertThat(run(opt, "tar", "-xzf", ARCHIVE.toString()).code).isZero();
        Path home = opt.resolve("railmap-" + VERSION);
        Path links = Files.createDirectories(temp.resolve("usr-local-bin"));
        Files.createSymbolicLink(links.resolve("railmap"), home.resolve("bin/railmap"));
        Files.createSymbolicLink(links.resolve("railmapd"), home.resolve("bin/railmapd"));
        Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));

        Result cli = run(elsewhere, links.resolve("railmap").toString(), "--version");
        assertThat(cli.code).as(cli.out).isZero();
        assertThat(cli.out.strip()).isEqualTo("railmap " + VERSION);

        Result daemon = run(elsewhere, links.resolve("railmapd").toString(), "--version");
        assertThat(daemon.code).as(daemon.out).isZero();
        assertThat(daemon.out.strip()).isEqualTo("railmapd " + VERSION);

        // a command that needs the core, JSON and graph libraries: the whole class path is there
        Result matrix = run(elsewhere, links.resolve("railmap").toString(), "matrix", "--snapshot",
                home.resolve("examples/snapshots/two-macs-crossed.json").toString(), "--hosts", "studio-a,studio-b", "--format", "jaccl");
        assertThat(matrix.code).as(matrix.out).isZero();
        assertThat(matrix.out).contains("rdma_en");
    }

    @Test
    void aLauncherWithoutItsJarsSaysWhatToDo(@TempDir Path temp) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bare/bin"));
        Files.copy(CHECKOUT.resolve("bin/railmapd"), bin.resolve("railmapd"));
        bin.resolve("railmapd").toFile().setExecutable(true);
        Result r = run(temp, bin.resolve("railmapd").toString(), "--version");
        assertThat(r.code).isEqualTo(1);
        assertThat(r.out.strip()).startsWith("railmapd: no jars in ").contains("unpack a release there").doesNotContain("\n");
    }

    private record Result(int code, String out) {
    }

    /** Runs a command in {@code dir} with this test's JDK as JAVA_HOME; output and errors together, at most 60 s. */
    private static Result run(Path dir, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("railmap-release-test", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().remove("RAILMAP_JAVA_OPTS");
            pb.environment().remove("RAILMAPD_JAVA_OPTS");
            Process p = pb.start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
