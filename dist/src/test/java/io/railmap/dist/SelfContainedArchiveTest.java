package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-contained archive ({@code railmap-VERSION-linux-ARCH.tar.gz}): the release archive's
 * files and a jlink runtime, which its launchers take before any other Java; and, as root, that it
 * runs where no Java exists: in a mount namespace where /usr/lib/jvm is an empty directory (so
 * /usr/bin/java and its alternatives link to nothing), {@code railmap --version} and a daemon that
 * answers /healthz, in a network namespace of its own so that it meets no other daemon.
 */
class SelfContainedArchiveTest {
    private static final Path ARCHIVE = Path.of(System.getProperty("railmap.selfContained"));
    private static final Path RELEASE = Path.of(System.getProperty("railmap.archive"));
    private static final String NAME = ARCHIVE.getFileName().toString().replaceFirst("\\.tar\\.gz$", "");
    private static final String TOP = NAME + "/";

    @TempDir
    static Path unpacked;
    private static Path home;
    private static Map<String, TarArchiveEntry> entries;

    @BeforeAll
    static void unpack() throws Exception {
        entries = Archive.entries(ARCHIVE);
        Archive.unpack(ARCHIVE, unpacked);
        home = unpacked.resolve(NAME);
    }

    @Test
    void isNamedForTheVersionAndThisPlatform() {
        assertThat(NAME).matches("railmap-" + ReleaseArchiveTest.VERSION.replace(".", "\\.") + "-linux-(x86_64|aarch64|[a-z0-9_]+)");
        assertThat(entries.keySet()).allSatisfy(n -> assertThat(n).startsWith(TOP));
    }

    @Test
    void holdsWhatTheReleaseArchiveHoldsAndARuntime() throws Exception {
        String releaseTop = "railmap-" + ReleaseArchiveTest.VERSION + "/";
        Set<String> release = Archive.entries(RELEASE).keySet().stream().map(n -> TOP + n.substring(releaseTop.length()))
                .collect(Collectors.toSet());
        assertThat(entries.keySet()).containsAll(release);
        assertThat(entries.get(TOP + "runtime/bin/java").getMode() & 0777).isEqualTo(0755);
        assertThat(entries).containsKeys(TOP + "runtime/release", TOP + "runtime/lib/modules", TOP + "runtime/lib/server/classes.jsa");
        // only what jlink was asked for: no compiler, no jshell, no header files
        assertThat(entries.keySet()).noneMatch(n -> n.startsWith(TOP + "runtime/include/") || n.equals(TOP + "runtime/bin/javac")
                || n.equals(TOP + "runtime/bin/jshell"));
    }

    @Test
    void takesItsOwnRuntimeBeforeJavaHome(@TempDir Path dir) throws Exception {
        // a JAVA_HOME that would fail: the bundled runtime comes first, so it is never looked at
        Commands.Result r = Commands.run(dir, Map.of("JAVA_HOME", dir.resolve("no-such-java").toString()), 60,
                home.resolve("bin/railmap").toString(), "--version");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).startsWith("railmap " + ReleaseArchiveTest.VERSION + "\nJava ")
                .endsWith(" (bundled runtime: " + home.resolve("runtime") + ")\n").hasLineCount(2);
    }

    @Test
    void runsWhereNoJavaExists(@TempDir Path dir) throws Exception {
        Optional<String> why = Tools.notRoot().or(() -> Tools.missing("apt-get install util-linux iproute2 curl", "unshare", "mount", "ip", "curl"));
        assumeTrue(why.isEmpty(), why.orElse(""));
        // PID namespace: when the test ends the shell (or it ends), the kernel ends the daemon with it
        String script = String.join("\n",
                "set -eu",
                "mount -t tmpfs -o size=1m,mode=0755 none /usr/lib/jvm",
                // every java link (/usr/bin/java, /etc/alternatives/java) pointed into /usr/lib/jvm: now at nothing
                "if [ -e /usr/bin/java ] || command -v java; then echo \"a java is still here\"; exit 90; fi",
                "ip link set lo up",
                "\"$HOME_DIR/bin/railmap\" --version",
                "\"$HOME_DIR/bin/railmapd\" --node nojava --api 127.0.0.1:7246 --bind 127.0.0.1 --cluster-port 7800 \\",
                "  --seeds 127.0.0.1:7800 --cluster nojava > \"$LOG\" 2>&1 &",
                "daemon=$!",
                "for _ in $(seq 1 600); do",
                "  kill -0 $daemon 2>/dev/null || { echo 'railmapd exited:'; cat \"$LOG\"; exit 91; }",
                "  if curl -fsS -m 2 http://127.0.0.1:7246/healthz; then break; fi",
                "  sleep 0.1",
                "done",
                "echo",
                "\"$HOME_DIR/bin/railmap\" nodes --daemon http://127.0.0.1:7246",
                "kill -TERM $daemon",
                "wait $daemon || echo \"railmapd exited $?\"");
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", null);
        env.put("HOME_DIR", home.toString());
        env.put("LOG", dir.resolve("railmapd.log").toString());
        Commands.Result r = Commands.run(dir, env, 180, "unshare", "--mount", "--net", "--pid", "--fork", "--kill-child",
                "--propagation", "private", "sh", "-c", script);
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).as(r.out()).contains("railmap " + ReleaseArchiveTest.VERSION + "\nJava ")
                .contains("(bundled runtime: " + home.resolve("runtime") + ")")
                .containsPattern("\"status\"\\s*:\\s*\"ok\"")
                .containsPattern("(?m)^nojava ")
                .doesNotContain("railmapd exited");
    }
}
