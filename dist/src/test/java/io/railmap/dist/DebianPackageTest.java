package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package ({@code dist/target/railmap_VERSION_all.deb}) read with dpkg-deb, never
 * installed (.ci/run installs and purges it): its control fields, conffiles and maintainer scripts,
 * and its files unpacked into a directory, where its launchers run through their /usr/bin links.
 */
class DebianPackageTest {
    /** Debian's form of the version: 0.1.0-SNAPSHOT is 0.1.0~SNAPSHOT, which sorts before 0.1.0. */
    private static final String DEB_VERSION = ReleaseArchiveTest.VERSION.replace('-', '~');
    private static final Path DEB = Path.of(System.getProperty("railmap.target")).resolve("railmap_" + DEB_VERSION + "_all.deb");
    private static final Path CHECKOUT = Path.of(System.getProperty("railmap.checkout")).toAbsolutePath().normalize();

    @TempDir
    static Path temp;
    private static Path root;
    private static Path control;

    @BeforeAll
    static void extract() throws Exception {
        Optional<String> why = Tools.missing("apt-get install dpkg", "dpkg-deb");
        assumeTrue(why.isEmpty(), why.orElse(""));
        assertThat(DEB).as("the package (made by ./mvnw package)").isRegularFile();
        root = Files.createDirectories(temp.resolve("root"));
        control = temp.resolve("DEBIAN");
        dpkgDeb("-x", DEB.toString(), root.toString());
        dpkgDeb("-e", DEB.toString(), control.toString());
    }

    private static String dpkgDeb(String... args) throws Exception {
        String[] command = Stream.concat(Stream.of("dpkg-deb"), Stream.of(args)).toArray(String[]::new);
        Commands.Result r = Commands.run(temp, Map.of(), 120, command);
        assertThat(r.code()).as(r.out()).isZero();
        return r.out();
    }

    @Test
    void isAnArchitectureIndependentPackageOfThisVersionThatNeedsAJava17() throws Exception {
        assertThat(dpkgDeb("-f", DEB.toString(), "Package", "Version", "Architecture", "Depends")).isEqualTo(String.join("\n",
                "Package: railmap", "Version: " + DEB_VERSION, "Architecture: all",
                "Depends: default-jre-headless (>= 2:1.17) | java17-runtime-headless", ""));
    }

    @Test
    void theSettingsAreConffilesAndNothingElseIs() throws Exception {
        assertThat(Files.readAllLines(control.resolve("conffiles")))
                .containsExactlyInAnyOrder("/etc/railmap/railmapd.env", "/etc/railmap/railmapd.properties");
        assertThat(root.resolve("etc/railmap/railmapd.properties")).hasSameTextualContentAs(CHECKOUT.resolve("config/railmapd.properties"));
        assertThat(root.resolve("etc/railmap/railmapd.env")).hasSameTextualContentAs(CHECKOUT.resolve("systemd/railmapd.env"));
    }

    @Test
    void putsEveryFileWhereDebianLooksForIt() throws IOException {
        Set<String> files;
        try (Stream<Path> all = Files.walk(root)) {
            files = all.filter(p -> !Files.isDirectory(p)).map(p -> "/" + root.relativize(p)).collect(Collectors.toSet());
        }
        assertThat(Stream.of("/usr/bin/railmap", "/usr/bin/railmapd", "/usr/share/railmap/bin/railmap",
                "/usr/share/railmap/bin/railmapd", "/usr/share/railmap/bin/pick-java.sh", "/usr/lib/systemd/system/railmapd.service",
                "/usr/share/man/man1/railmap.1.gz", "/usr/share/man/man1/railmap-matrix.1.gz", "/usr/share/man/man8/railmapd.8.gz",
                "/usr/share/bash-completion/completions/railmap", "/usr/share/bash-completion/completions/railmapd",
                "/usr/share/zsh/vendor-completions/_railmap", "/usr/share/zsh/vendor-completions/_railmapd",
                "/usr/share/doc/railmap/README.md", "/usr/share/doc/railmap/docs/install.md").filter(f -> !files.contains(f)))
                .as("files the package lacks").isEmpty();
        assertThat(files).allSatisfy(f -> assertThat(f).matches("/(usr/bin|usr/share|usr/lib/systemd/system|etc/railmap)/.*"));
        assertThat(Files.readSymbolicLink(root.resolve("usr/bin/railmap"))).as("relative, as Debian policy 10.5 wants")
                .isEqualTo(Path.of("../share/railmap/bin/railmap"));
        assertThat(Files.readSymbolicLink(root.resolve("usr/bin/railmapd"))).isEqualTo(Path.of("../share/railmap/bin/railmapd"));
    }

    @Test
    void holdsTheJarsOfTheReleaseArchive() throws Exception {
        String top = "railmap-" + ReleaseArchiveTest.VERSION + "/lib/";
        Set<String> archived = Archive.entries(Path.of(System.getProperty("railmap.archive"))).keySet().stream()
                .filter(n -> n.startsWith(top) && n.endsWith(".jar")).map(n -> n.substring(top.length())).collect(Collectors.toSet());
        try (Stream<Path> lib = Files.list(root.resolve("usr/share/railmap/lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()).collect(Collectors.toSet())).isEqualTo(archived);
        }
    }

    @Test
    void theUnitIsTheShippedOneRunningTheLauncherInUsrBin() throws IOException {
        String shipped = Files.readString(CHECKOUT.resolve("systemd/railmapd.service"));
        assertThat(shipped).containsOnlyOnce("ExecStart=/opt/railmap/bin/railmapd ");
        assertThat(root.resolve("usr/lib/systemd/system/railmapd.service"))
                .hasContent(shipped.replace("ExecStart=/opt/railmap/bin/railmapd ", "ExecStart=/usr/bin/railmapd "));
    }

    @Test
    void theLaunchersRunThroughTheirLinks(@TempDir Path dir) throws Exception {
        for (String name : List.of("railmap", "railmapd")) {
            Commands.Result r = Commands.run(dir, ReleaseArchiveTest.WITH_JDK, 60, root.resolve("usr/bin").resolve(name).toString(), "--version");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).startsWith(name + " " + ReleaseArchiveTest.VERSION + "\nJava ");
        }
    }

    @Test
    void theMaintainerScriptsAreShellThatEnablesStartsAndStopsNothing() throws Exception {
        for (String script : List.of("postinst", "prerm", "postrm")) {
            Path file = control.resolve(script);
            assertThat(Files.isExecutable(file)).as(script + " executable").isTrue();
            Commands.Result syntax = Commands.run(temp, Map.of(), 30, "sh", "-n", file.toString());
            assertThat(syntax.code()).as(script + ": " + syntax.out()).isZero();
            String text = Files.readString(file);
            // what the scripts run: not their comments, not what they print (postinst's message, quoted strings)
            String commands = text.replaceAll("(?s)<<'MESSAGE'\n.*?\nMESSAGE\n", "\n").replaceAll("(?m)^\\s*#.*$", "")
                    .replaceAll("\"[^\"]*\"", "\"\"");
            assertThat(text).as(script).startsWith("#!/bin/sh\n").contains("set -e\n");
            assertThat(commands).as(script)
                    .doesNotContainPattern("systemctl\\s+(enable|start|stop|restart|reload-or-restart|kill|mask|preset)\\b")
                    .doesNotContain("deb-systemd-invoke").doesNotContain("pkill").doesNotContain("killall");
        }
        // an upgrade restarts a running service only: try-restart starts nothing that is stopped
        assertThat(Files.readString(control.resolve("postinst"))).contains("systemctl try-restart railmapd.service")
                .contains("neither enabled nor started", "sudo systemctl enable --now railmapd");
    }
}
