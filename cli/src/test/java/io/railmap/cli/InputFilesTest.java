package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file the CLI reads (snapshot, devices file, record, lab topology, capture) must be a regular
 * text file under its cap: a device, a FIFO, a directory or a huge file is exit 1 and one line naming
 * the file and the rule, never an out-of-memory trace or a hang. Names from a file are shown escaped
 * and cut.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InputFilesTest {
    private static final Path SNAPSHOT = Path.of("../examples/snapshots/two-macs-crossed.json").toAbsolutePath();

    @TempDir
    Path dir;
    private Path fifo;

    @BeforeEach
    void aFifo() throws Exception {
        fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();
    }

    private Path sparse(String name, long bytes) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
        return file;
    }

    /** The command for each kind of input file, with {@code FILE} where the file goes. */
    private List<List<String>> readers(String file) {
        return List.of(
                List.of("matrix", "--snapshot", file),
                List.of("check", file, "--snapshot", SNAPSHOT.toString(), "--hosts", "studio-a,studio-b"),
                List.of("snapshot", file),
                List.of("lab", "up", "--topology", file));
    }

    private static final List<String> LABELS = List.of("snapshot", "devices file", "record file", "topology file");
    private static final List<String> CAPS = List.of("64 MiB", "16 MiB", "16 MiB", "1 MiB");

    @Test
    void devicesFifosAndDirectoriesAreRefusedWithOneLine() {
        for (String file : List.of("/dev/zero", fifo.toString(), dir.toString())) {
            String what = file.equals("/dev/zero") ? "a character device" : file.equals(dir.toString()) ? "a directory" : "a FIFO (named pipe)";
            List<List<String>> commands = readers(file);
            for (int i = 0; i < commands.size(); i++) {
                Run run = Run.of(commands.get(i).toArray(String[]::new));
                assertThat(run).as(commands.get(i).toString()).isEqualTo(new Run(1, "", "railmap: " + LABELS.get(i) + " " + file + " is "
                        + what + ", not a regular file; give a regular text file of at most " + CAPS.get(i) + "\n"));
            }
        }
    }

    @Test
    void aFileOverItsCapIsRefusedBeforeItIsRead() throws IOException {
        long[] caps = {64L << 20, 16L << 20, 16L << 20, 1L << 20};
        for (int i = 0; i < caps.length; i++) {
            Path big = sparse("big" + i, caps[i] + 1);
            List<String> command = readers(big.toString()).get(i);
            Run run = Run.of(command.toArray(String[]::new));
            assertThat(run).as(command.toString()).isEqualTo(new Run(1, "", "railmap: " + LABELS.get(i) + " " + big + " is " + (caps[i] + 1)
                    + " bytes, over the limit of " + CAPS.get(i) + "\n"));
        }
    }

    @Test
    void aBinaryFileIsRefused() throws IOException {
        Path garbage = sparse("zeros.json", 1000);

        Run run = Run.of("matrix", "--snapshot", garbage.toString());

        assertThat(run.err()).isEqualTo("railmap: snapshot " + garbage
                + " is not text: it holds the control byte 0x00 at offset 0; give a regular text file of at most 64 MiB\n");
    }

    @Test
    void aCaptureFileThatIsAFifoFailsDiscoveryWithoutWaiting() throws IOException {
        Path capture = Files.createDirectories(dir.resolve("capture"));
        Files.move(fifo, capture.resolve("system_profiler.json"));
        Files.writeString(capture.resolve("networksetup.txt"), "");

        Run run = Run.of("discover", "--node", "mbp", "--macos-capture", capture.toString());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).startsWith("railmap: discovery failed: ").contains("capture file " + capture.resolve("system_profiler.json")
                + " is a FIFO (named pipe), not a regular file").hasLineCount(1);
    }

    private Path snapshotWithNode(String nodeJson) throws IOException {
        return Files.writeString(dir.resolve("s.json"), "{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [{\"node\": "
                + nodeJson + ", \"version\": 1, \"ports\": []}]}");
    }

    @Test
    void aNodeNameWithALineBreakOrAnEscapeSequenceIsShownEscaped() throws IOException {
        Path s = snapshotWithNode("\"a\\nFAKE: all good\\u001b[2J\"");

        Run run = Run.of("matrix", "--snapshot", s.toString());

        assertThat(run).isEqualTo(new Run(1, "", "railmap: " + s + ": at $.records[0].node: node name \"a\\nFAKE: all good\\x1b[2J\" "
                + "contains a control or invisible character\n"));
    }

    @Test
    void aTenMegabyteNameGivesAShortLine() throws IOException {
        Path s = snapshotWithNode("\"" + "n".repeat(10_000_000) + "\"");

        Run run = Run.of("matrix", "--snapshot", s.toString());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("railmap: " + s + ": at $.records[0].node: node name \"" + "n".repeat(64)
                + "…(9999936 more)\" is 10000000 bytes of UTF-8, over 64\n");
    }

    @Test
    void aPeerNameWithAnEscapeSequenceIsShownEscapedInTheTable() throws IOException {
        String text = Files.readString(SNAPSHOT).replace("\"peerName\": \"Mac Studio\"", "\"peerName\": \"Mac\\u001b]0;owned\\u0007\\nStudio\"");
        Path s = Files.writeString(dir.resolve("peer.json"), text);

        Run run = Run.of("ports", "--snapshot", s.toString(), "--node", "studio-a");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("peer Mac\\x1b]0;owned\\x07\\nStudio").doesNotContain("\u001b", "\u0007");
        assertThat(run.out().lines()).hasSize(1 + 1 + 1 + 2); // title, management and RDMA line, header, two ports
    }

    @Test
    void argumentsAreShownEscapedToo() {
        List<String> command = new ArrayList<>(List.of("ports", "--snapshot", SNAPSHOT.toString(), "--node", "x\u001b[2J"));

        Run run = Run.of(command.toArray(String[]::new));

        assertThat(run).isEqualTo(new Run(1, "", "railmap: --node name \"x\\x1b[2J\" contains a control or invisible character\n"));
    }

    @Test
    void runningOutOfHeapIsOneLineNotAStackTrace() throws Exception {
        // 8 MB of names in a JVM with 16 MB of heap
        Path s = Files.writeString(dir.resolve("heavy.json"), "{\"format\": \"railmap-snapshot\", \"version\": 1, \"records\": [\""
                + "r".repeat(8_000_000) + "\"]}");
        Process p = new ProcessBuilder(CliProcess.shell("exec \"$@\"", List.of("-Xmx16m"), "matrix", "--snapshot", s.toString()))
                .redirectErrorStream(true).start();

        String output = CliProcess.finish(p);

        assertThat(p.exitValue()).as(output).isEqualTo(1);
        assertThat(output).matches("railmap: out of memory: the input needs more than this JVM's \\d+ MB of heap; "
                + "give it more with RAILMAP_JAVA_OPTS=-Xmx2g\n");
    }
}
