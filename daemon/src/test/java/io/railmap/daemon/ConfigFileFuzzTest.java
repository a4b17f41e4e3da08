package io.railmap.daemon;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.railmap.matrix.Fuzzing;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Fuzzes what {@code railmapd --config FILE} reads ({@link ConfigFile#read}): any bytes in the file
 * give its settings or an {@link IllegalArgumentException} of one line that starts with
 * {@code --config FILE}, nothing else. A file that reads is then applied as the daemon applies it
 * ({@link Railmapd#run}, the flags' defaults, {@link Railmapd#daemonConfig}; nothing starts): exit 0,
 * or exit 1 with an error line starting {@code railmapd: }, never another code or an exception.
 * Seeds: the config file of the macOS service (docs/service.md), one of every kind of line, and the files
 * {@code RailmapdFlagsTest} refuses.
 */
class ConfigFileFuzzTest {
    private static final Path FILE = file();
    /** Flags every run gives on the command line, so that nothing depends on this machine's addresses. */
    private static final String[] FLAGS = {"--config", FILE.toString(), "--node", "t", "--bind", "127.0.0.1", "--api", "127.0.0.1:0"};

    private static Path file() {
        try {
            Path dir = Files.createTempDirectory("railmapd-config-fuzz");
            dir.toFile().deleteOnExit();
            Path file = dir.resolve("railmapd.properties");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Stream<byte[]> seeds() {
        return Stream.of("interfaces=en*\n",
                "# railmapd\ninterfaces = veth*, en*\ncluster=lab-1\nprobe-interval-ms=250\nlldpd-socket=/run/lab/g1/lldpd.socket\n"
                        + "switch-poll-ms=500\n",
                "! comment\n  cluster : lab\\\n  -1\nlink-poll-ms 9223372036854775807   \ncluster-port=x\n",
                "node=a\ninterfaces=en*\nnode=b\n", "config=/etc/railmap/other.properties\n", "interfacs=en*\n",
                "api-socket=/run/railmap/railmapd.sock\nseeds=10.0.0.1:7800,10.0.0.2\nassume-rdma=true\n",
                "cluster=\\u0000\\u001b[31m\n")
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    @MethodSource("seeds")
    @DictionaryEntries({"interfaces=", "cluster=", "node=", "probe-interval-ms=", "link-poll-ms=", "cluster-port=", "seeds=",
        "api-socket=", "cluster-key-file=", "config=", "#", "!", ":"})
    @FuzzTest(maxExecutions = Fuzzing.EXECUTIONS, maxDuration = Fuzzing.MAX_DURATION)
    void configFile(byte[] input) throws IOException {
        Files.write(FILE, input);
        Map<String, byte[]> inputs = Map.of("config file", input);
        Railmapd railmapd = new Railmapd();
        StringWriter err = new StringWriter();
        CommandLine cmd = Railmapd.commandLine(railmapd, new PrintWriter(err, true));
        // null means the documented error; settings that are null fail as an undocumented NullPointerException
        ConfigFile config = Fuzzing.parse(inputs, () -> Objects.requireNonNull(ConfigFile.read(FILE, cmd), "no settings and no error"),
                "one line naming --config and the file",
                m -> (m.startsWith("--config " + FILE + " ") || m.startsWith("--config " + FILE + ":")) && !m.contains("\n"),
                IllegalArgumentException.class);
        if (config == null) {
            return;
        }
        // as RailmapdFlagsTest: what the daemon's run would throw, through picocli's execution handler
        cmd.setExecutionStrategy(parsed -> {
            try {
                railmapd.daemonConfig();
                return 0;
            } catch (RuntimeException e) {
                throw new CommandLine.ExecutionException(cmd, e.getMessage(), e);
            }
        });
        int code = Fuzzing.parse(inputs, () -> Railmapd.run(cmd, FLAGS));
        if (code != 0 && !(code == Railmapd.BAD_FLAG && err.toString().startsWith("railmapd: "))) {
            throw Fuzzing.failure("exit " + code + " (" + err + ")", inputs, null);
        }
    }
}
