package io.railmap.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.daemon.testing.RailmapdJvm;
import io.railmap.daemon.testing.RailmapdJvm.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every railmapd flag given bad values: exit code 1 and one line naming the flag, before anything
 * starts. Most cases run railmapd's own command line ({@link Railmapd#commandLine}, {@link Railmapd#run},
 * the config-file handling and the exit codes of {@code main}) in this JVM, with an execution step that
 * builds the {@link DaemonConfig} as {@code call()} does and stops there; a few run real railmapd JVMs to
 * show that {@code main} is that command line.
 */
class RailmapdFlagsTest {
    @TempDir
    static Path dir;
    private static Path fifo;
    private static Path regular;
    private static Path key;

    @BeforeAll
    static void files() throws Exception {
        regular = Files.writeString(dir.resolve("regular"), "text\n");
        key = Files.writeString(dir.resolve("cluster.key"), "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0Cg==\n");
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        try (RandomAccessFile big = new RandomAccessFile(dir.resolve("big").toFile(), "rw")) {
            big.setLength(65 * 1024);
        }
        Files.createDirectories(dir.resolve("sysfs"));
    }

    private static Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** exit code and standard error of one run */
    private record Result(int code, String err) {
        List<String> lines() {
            return err.lines().toList();
        }
    }

    /**
     * Runs railmapd's command line on these flags (over {@code --node t --api 127.0.0.1:0 --bind
     * 127.0.0.1}, which they replace) up to the point where the daemon would start.
     */
    private static Result check(String... flags) {
        Map<String, String> args = new LinkedHashMap<>(Map.of("--node", "t", "--api", "127.0.0.1:0", "--bind", "127.0.0.1"));
        List<String> extra = new ArrayList<>();
        for (int i = 0; i < flags.length; i += 2) {
            if (args.containsKey(flags[i])) {
                args.put(flags[i], flags[i + 1]);
            } else {
                extra.addAll(List.of(flags[i], flags[i + 1]));
            }
        }
        List<String> line = new ArrayList<>();
        args.forEach((flag, value) -> line.addAll(List.of(flag, value)));
        line.addAll(extra);
        StringWriter err = new StringWriter();
        CommandLine cmd = Railmapd.commandLine(new Railmapd(), new PrintWriter(err, true));
        cmd.setExecutionStrategy(parsed -> {
            try {
                ((Railmapd) parsed.commandSpec().userObject()).daemonConfig();
                return 0;
            } catch (RuntimeException e) {
                throw new CommandLine.ExecutionException(parsed.commandSpec().commandLine(), e.getMessage(), e);
            }
        });
        return new Result(Railmapd.run(cmd, line.toArray(String[]::new)), err.toString());
    }

    @Test
    void theBaseFlagsAreGood() {
        assertThat(check()).isEqualTo(new Result(0, ""));
        assertThat(check("--api", "[::1]:0", "--seeds", "10.0.0.1,node-2.example:7801,[fd00::1]:7802", "--cluster-key-file", key.toString(),
                "--probe-interval-ms", "60000", "--link-poll-ms", "60000", "--link-recheck-ms", "600000", "--sysfs-root",
                dir.resolve("sysfs").toString())).isEqualTo(new Result(0, ""));
    }

    static Stream<Arguments> badValues() {
        String longName = "n".repeat(65);
        List<Arguments> cases = new ArrayList<>(List.of(
                Arguments.of("--node", longName), Arguments.of("--node", "a:b"), Arguments.of("--node", "a b"),
                Arguments.of("--node", "a\u001b[2Jb"), Arguments.of("--node", ""), Arguments.of("--node", "a\u202eb"),
                Arguments.of("--cluster", "a:b"), Arguments.of("--cluster", longName), Arguments.of("--cluster", "a,b"),
                Arguments.of("--cluster", ""),
                Arguments.of("--api", "[::1:18246"), Arguments.of("--api", "::1:7246"), Arguments.of("--api", "nothost:80"),
                Arguments.of("--api", "999.1.1.1:80"), Arguments.of("--api", "192.0.2.1:80"), Arguments.of("--api", "127.0.0.1"),
                Arguments.of("--api", "127.0.0.1:99999"), Arguments.of("--api", "127.0.0.1:-1"), Arguments.of("--api", ":80"),
                Arguments.of("--api", "localhost:7246"),
                Arguments.of("--api-socket", "/tmp/" + "s".repeat(120)), Arguments.of("--api-socket", "/tmp/a\nb.sock"),
                Arguments.of("--api-socket", ""),
                Arguments.of("--bind", "nothost"), Arguments.of("--bind", "0.0.0.0"), Arguments.of("--bind", "192.0.2.1"),
                Arguments.of("--bind", "[::1"),
                Arguments.of("--cluster-port", "0"), Arguments.of("--cluster-port", "65436"), Arguments.of("--cluster-port", "x"),
                Arguments.of("--cluster-port", "99999999999"),
                Arguments.of("--seeds", "a,,b"), Arguments.of("--seeds", "a:x"), Arguments.of("--seeds", "a:0"),
                Arguments.of("--seeds", "[::1"), Arguments.of("--seeds", "bad host"), Arguments.of("--seeds", "a\u001bb"),
                Arguments.of("--seeds", String.join(",", java.util.Collections.nCopies(257, "10.0.0.1"))),
                Arguments.of("--cluster-key", "!!!!"), Arguments.of("--cluster-key", "YQ=="),
                Arguments.of("--cluster-timing", "fast"),
                Arguments.of("--probe-interval-ms", "9"), Arguments.of("--probe-interval-ms", "60001"),
                Arguments.of("--probe-interval-ms", "9223372036854775807"), Arguments.of("--probe-interval-ms", "-1"),
                Arguments.of("--probe-interval-ms", "x"),
                Arguments.of("--link-poll-ms", "49"), Arguments.of("--link-poll-ms", "60001"),
                Arguments.of("--link-poll-ms", "9223372036854775807"), Arguments.of("--link-poll-ms", "x"),
                Arguments.of("--link-recheck-ms", "999"), Arguments.of("--link-recheck-ms", "600001"), Arguments.of("--link-recheck-ms", "x"),
                Arguments.of("--switch-poll-ms", "99"), Arguments.of("--switch-poll-ms", "600001"), Arguments.of("--switch-poll-ms", "x"),
                Arguments.of("--rank-scan-ms", "499"), Arguments.of("--rank-scan-ms", "60001"), Arguments.of("--rank-scan-ms", "0"),
                Arguments.of("--rank-scan-ms", "-1"), Arguments.of("--rank-scan-ms", "x"), Arguments.of("--rank-scan-ms", ""),
                Arguments.of("--rank-scan-ms", "2s"), Arguments.of("--rank-scan-ms", "of"), Arguments.of("--rank-scan-ms", "9223372036854775808"),
                Arguments.of("--rank-scan-ms", "off\u001b[2J"),
                Arguments.of("--lldpd-socket", "/run/" + "l".repeat(120)), Arguments.of("--lldpd-socket", "/run/lldpd\u001b[2J.socket"),
                Arguments.of("--lldpd-socket", ""),
                Arguments.of("--interfaces", "["), Arguments.of("--interfaces", "a,,b"), Arguments.of("--interfaces", "!"),
                Arguments.of("--interfaces", "en*\u001b[2J"), Arguments.of("--interfaces", "e".repeat(5000)),
                Arguments.of("--assume-rdma", "["), Arguments.of("--assume-rdma", "a,,b"),
                Arguments.of("--assume-rdma", "en*\u001b[2J"), Arguments.of("--assume-rdma", "e".repeat(5000)),
                Arguments.of("--sysfs-root", "/nonexistent-sysfs"), Arguments.of("--macos-capture", "/nonexistent-capture")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badValues")
    void aBadValueIsExitCodeOneAndOneLineNamingTheFlag(String flag, String value) {
        Result result = check(flag, value);

        assertThat(result.code()).as(result.err()).isEqualTo(1);
        assertOneLineNaming(result, flag);
    }

    /** One line naming the flag; picocli's own parse errors add its usage hint. */
    private static void assertOneLineNaming(Result result, String flag) {
        List<String> lines = result.lines();
        assertThat(lines.get(0)).startsWith("railmapd: ").contains(flag).hasSizeLessThan(400)
                .doesNotContain("\u001b", "\u202e", "Exception");
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.equals("Try 'railmapd --help' for usage."));
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aKeyFileThatIsNoRegularTextFileWithinItsCapIsRefused() throws IOException {
        Path notAKey = file("not-a-key", "this is not base64\n");
        for (String bad : List.of("/nonexistent.key", dir.toString(), "/dev/zero", fifo.toString(), dir.resolve("big").toString(),
                notAKey.toString())) {
            Result result = check("--cluster-key-file", bad);
            assertThat(result.code()).as(bad).isEqualTo(1);
            assertOneLineNaming(result, "--cluster-key-file " + bad);
        }
        Result both = check("--cluster-key", "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0", "--cluster-key-file", key.toString());
        assertThat(both).isEqualTo(new Result(1, "railmapd: give --cluster-key or --cluster-key-file, not both\n"));
    }

    @Test
    void theSysfsRootAndTheCaptureAreDirectoriesAndNotBoth() {
        assertThat(check("--sysfs-root", regular.toString()))
                .isEqualTo(new Result(1, "railmapd: --sysfs-root " + regular + " is not a directory: give a directory\n"));
        assertThat(check("--sysfs-root", dir.toString(), "--macos-capture", dir.toString()).err())
                .isEqualTo("railmapd: give --sysfs-root or --macos-capture, not both\n");
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aConfigFileThatIsNoRegularTextFileWithinItsCapIsRefused() throws IOException {
        Path binary = Files.write(dir.resolve("binary.properties"), new byte[] {'n', 'o', 'd', 'e', '=', 0, 1, 2, (byte) 0xff});
        for (String bad : List.of("/nonexistent.properties", dir.toString(), "/dev/zero", fifo.toString(), dir.resolve("big").toString(),
                binary.toString())) {
            Result result = check("--config", bad);
            assertThat(result.code()).as(bad).isEqualTo(1);
            assertThat(result.err()).as(bad).startsWith("railmapd: --config " + bad + " ").endsWith("\n").hasLineCount(1);
        }
        assertThat(check("--config", binary.toString()).err()).isEqualTo("railmapd: --config " + binary
                + " is not text: it holds the control byte 0x00 at offset 5; give a regular text file of at most 64 KiB\n");
    }

    @Test
    void aConfigKeyThatIsNoFlagIsAnErrorWithTheClosestFlag() throws IOException {
        Path typo = file("typo.properties", "# ports\ninterfacs=en*\n");

        Result result = check("--config", typo.toString());

        assertThat(result.code()).isEqualTo(1);
        assertThat(result.err()).startsWith("railmapd: --config " + typo + ": unknown key \"interfacs\" (did you mean interfaces?); "
                + "the keys are the long flags without dashes: api, api-socket, assume-rdma, bind, cluster, ").hasLineCount(1);
    }

    @Test
    void aConfigFileMayNotRepeatAKeyNorNameAnotherConfig() throws IOException {
        Path twice = file("twice.properties", "node=a\ninterfaces=en*\nnode=b\n");
        Path nested = file("nested.properties", "config=/etc/railmap/other.properties\n");
        Path qualified = file("qualified.properties", "railmapd.node=a\n");

        assertThat(check("--config", twice.toString()))
                .isEqualTo(new Result(1, "railmapd: --config " + twice + " sets node twice; keep one line\n"));
        assertThat(check("--config", nested.toString()))
                .isEqualTo(new Result(1, "railmapd: --config " + nested + " sets config: a config file cannot name another one\n"));
        // picocli may add a suggestion by prefix ("ra": rank-scan-ms) before the list
        assertThat(check("--config", qualified.toString()).err()).startsWith("railmapd: --config " + qualified
                + ": unknown key \"railmapd.node\"").contains("; the keys are the long flags without dashes: ");
    }

    @Test
    void aBadValueFromTheConfigFileSaysWhereItCameFrom() throws IOException {
        Path config = file("railmapd.properties", "probe-interval-ms=600000\ncluster-port=x\n");
        Path poll = file("poll.properties", "link-poll-ms=9223372036854775807   \n");

        assertThat(check("--config", config.toString(), "--cluster-port", "7800")).isEqualTo(new Result(1,
                "railmapd: --probe-interval-ms 600000 is outside 10-60000 (from --config " + config + ")\n"));
        assertThat(check("--config", config.toString(), "--probe-interval-ms", "250").lines()).containsExactly(
                "railmapd: Invalid value for option '--cluster-port': 'x' is not an int (from --config " + config + ")",
                "Try 'railmapd --help' for usage.");
        assertThat(check("--config", poll.toString()).err()).isEqualTo("railmapd: --link-poll-ms 9223372036854775807 is outside 50-60000"
                + " (from --config " + poll + ")\n");
        // the command line wins, and its own bad value is not blamed on the file
        assertThat(check("--config", poll.toString(), "--link-poll-ms", "10").err()).isEqualTo("railmapd: --link-poll-ms 10 is outside 50-60000\n");
        assertThat(check("--config", poll.toString(), "--link-poll-ms", "100").code()).isZero();
    }

    @Test
    void aConfigFileSetsTheFlagsItNames() throws IOException {
        Path config = file("good.properties", "# railmapd\ninterfaces = veth*, en*\ncluster=lab-1\nprobe-interval-ms=250\n"
                + "lldpd-socket=/run/lab/g1/lldpd.socket\nswitch-poll-ms=500\nrank-scan-ms=off\n");
        StringWriter err = new StringWriter();
        Railmapd railmapd = new Railmapd();
        CommandLine cmd = Railmapd.commandLine(railmapd, new PrintWriter(err, true));
        DaemonConfig[] seen = new DaemonConfig[1];
        cmd.setExecutionStrategy(parsed -> {
            seen[0] = railmapd.daemonConfig();
            return 0;
        });

        assertThat(Railmapd.run(cmd, new String[] {"--config", config.toString(), "--node", "t", "--bind", "127.0.0.1", "--api", "127.0.0.1:0"}))
                .as(err.toString()).isZero();
        assertThat(seen[0].cluster()).isEqualTo("lab-1");
        assertThat(seen[0].probe().intervalMs()).isEqualTo(250);
        assertThat(seen[0].discovery().lldpdSocket()).isEqualTo(Path.of("/run/lab/g1/lldpd.socket"));
        assertThat(seen[0].switchPollMs()).isEqualTo(500);
        assertThat(seen[0].rankScanMs()).isEmpty();
    }

    @Test
    void theRankScanIsAnIntervalInItsRangeOrOff() {
        assertThat(Railmapd.rankScan("2000")).hasValue(2000);
        assertThat(Railmapd.rankScan(" 500 ")).hasValue(500);
        assertThat(Railmapd.rankScan("60000")).hasValue(60000);
        assertThat(Railmapd.rankScan("off")).isEmpty();
        assertThat(Railmapd.rankScan("OFF")).isEmpty();
        assertThat(check("--rank-scan-ms", "x")).isEqualTo(new Result(1,
                "railmapd: --rank-scan-ms \"x\" is neither a number of ms nor off: give e.g. 2000, or off to read no process\n"));
        assertThat(check("--rank-scan-ms", "499")).isEqualTo(new Result(1, "railmapd: --rank-scan-ms 499 is outside 500-60000\n"));
    }

    @Test
    void anUnknownFlagIsNamedWithTheClosestOne() {
        Result result = check("--interfacs", "en*");

        assertThat(result.code()).isEqualTo(1);
        assertThat(result.lines()).first().asString().startsWith("railmapd: Unknown options: '--interfacs', 'en*'");
        assertThat(result.err()).contains("--interfaces");
    }

    // ---- real railmapd JVMs: main is the command line above ----

    private static Process start(String... flags) throws Exception {
        List<String> all = new ArrayList<>(List.of("--node", "t", "--api", "127.0.0.1:0"));
        all.addAll(List.of(flags));
        return RailmapdJvm.start(all);
    }

    private static Run finish(Process p) throws Exception {
        return RailmapdJvm.finish(p, 30);
    }

    @Test
    void badFlagsStopARealDaemonWithOneLineAndExitCodeOne() throws Exception {
        Path typo = file("jvm-typo.properties", "interfacs=en*\n");
        // started together: each is a JVM start
        Process bothKeys = start("--cluster-key", "abc", "--cluster-key-file", "/etc/railmap/cluster.key");
        Process seeds = start("--bind", "127.0.0.1", "--seeds", "10.0.0.1:x");
        Process cluster = start("--bind", "127.0.0.1", "--cluster", "a:b");
        Process config = start("--bind", "127.0.0.1", "--config", typo.toString());
        Process keyFifo = start("--bind", "127.0.0.1", "--cluster-key-file", fifo.toString());

        assertThat(finish(bothKeys)).isEqualTo(new Run(1, "railmapd: give --cluster-key or --cluster-key-file, not both\n"));
        assertThat(finish(seeds)).isEqualTo(new Run(1, "railmapd: --seeds entry \"10.0.0.1:x\" is not host[:port]: port \"x\" is not a number\n"));
        assertThat(finish(cluster)).isEqualTo(new Run(1, "railmapd: --cluster name \"a:b\" must not contain ':' or ','\n"));
        Run typoRun = finish(config);
        assertThat(typoRun.exit()).isEqualTo(1);
        assertThat(typoRun.stderr()).startsWith("railmapd: --config " + typo + ": unknown key \"interfacs\" (did you mean interfaces?)")
                .hasLineCount(1);
        assertThat(finish(keyFifo)).isEqualTo(new Run(1, "railmapd: --cluster-key-file " + fifo
                + " is a FIFO (named pipe), not a regular file; give a regular text file of at most 64 KiB\n"));
    }
}
