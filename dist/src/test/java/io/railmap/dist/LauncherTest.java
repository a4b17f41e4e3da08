package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which Java the launchers of the release archive run (bin/pick-java.sh): JAVA_HOME's, else java on
 * the PATH, with --version saying which; and one line with exit 1, not a JVM's trace, when there is
 * none, when JAVA_HOME holds none, or when it is older than 17.
 */
class LauncherTest {
    private static final Path ARCHIVE = Path.of(System.getProperty("railmap.archive"));
    private static final String JAVA_HOME = System.getProperty("java.home");

    @TempDir
    static Path unpacked;
    private static Path railmap;

    @BeforeAll
    static void unpack() throws Exception {
        Archive.unpack(ARCHIVE, unpacked);
        railmap = unpacked.resolve("railmap-" + ReleaseArchiveTest.VERSION).resolve("bin/railmap");
    }

    /** The environment with JAVA_HOME unset and PATH as given. */
    private static Map<String, String> path(String path) {
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", null);
        env.put("PATH", path);
        return env;
    }

    @Test
    void withoutJavaHomeTakesJavaOnThePathAndSaysSo(@TempDir Path dir) throws Exception {
        Commands.Result r = Commands.run(dir, path(JAVA_HOME + "/bin:/usr/bin:/bin"), 60, railmap.toString(), "--version");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).endsWith("Java " + Runtime.version() + " (java on the PATH: " + JAVA_HOME + ")\n");
    }

    @Test
    void aJavaHomeWithoutJavaIsOneLineSayingWhatToDo(@TempDir Path dir) throws Exception {
        Commands.Result r = Commands.run(dir, Map.of("JAVA_HOME", dir.resolve("nothing").toString()), 60, railmap.toString(), "--version");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).isEqualTo("railmap: JAVA_HOME=" + dir.resolve("nothing") + " holds no bin/java: point it at a Java 17 or newer, "
                + "or unset it to use java on the PATH\n");
    }

    @Test
    void noJavaAnywhereIsOneLineNamingTheWaysToGetOne(@TempDir Path dir) throws Exception {
        // a PATH with what the launcher runs besides java, and no java
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : new String[] {"dirname", "readlink", "sed"}) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool));
        }
        Commands.Result r = Commands.run(dir, path(bin.toString()), 60, railmap.toString(), "--version");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).startsWith("railmap: no Java runtime: install Java 17 or newer (Debian, Ubuntu: apt-get install default-jre-headless;")
                .contains("set JAVA_HOME", "railmap-VERSION-linux-ARCH.tar.gz").hasLineCount(1);
    }

    @Test
    void aJavaOlderThan17IsRefusedBeforeItRuns(@TempDir Path dir) throws Exception {
        for (String[] release : new String[][] {{"11.0.22", "11"}, {"1.8.0_402", "8"}}) {
            Path home = Files.createDirectories(dir.resolve("java-" + release[1]));
            Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
            Files.writeString(java, "#!/bin/sh\necho this old java ran\n");
            assertThat(java.toFile().setExecutable(true)).isTrue();
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Someone\"\nJAVA_VERSION=\"" + release[0] + "\"\n");
            Commands.Result r = Commands.run(dir, Map.of("JAVA_HOME", home.toString()), 60, railmap.toString(), "--version");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.out()).isEqualTo("railmap: " + java + " (JAVA_HOME) is Java " + release[1]
                    + ": railmap needs Java 17 or newer; set JAVA_HOME to one\n");
        }
    }
}
