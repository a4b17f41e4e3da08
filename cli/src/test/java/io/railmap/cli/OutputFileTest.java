package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railmap.cli.options.OutputFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -o FILE} writes only regular files, atomically, keeping a replaced file's mode (and, as
 * root, its owner) and giving a new one what the umask says; whatever is not a regular file is
 * refused and left as it was.
 */
class OutputFileTest {
    private static final Path SNAPSHOT = Path.of("../examples/snapshots/two-macs-crossed.json").toAbsolutePath();
    private static final String MATRIX = "[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [[\"rdma_en7\",\"rdma_en6\"], null]\n]\n";
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    @TempDir
    Path dir;

    @BeforeEach
    void theExampleSnapshotIsThere() {
        assertThat(SNAPSHOT).isRegularFile();
    }

    private static Run matrix(Path out) {
        return Run.of("matrix", "--snapshot", SNAPSHOT.toString(), "--hosts", "studio-a,studio-b", "-o", out.toString());
    }

    private List<String> leftovers() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void aNewFileIsWrittenWhole() throws IOException {
        Path out = dir.resolve("devices.json");

        Run run = matrix(out);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(out)).isEqualTo(MATRIX);
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aReplacedFileKeepsItsModeAndAsRootItsOwner() throws Exception {
        Path out = Files.writeString(dir.resolve("devices.json"), "old\n");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
        if (ROOT) {
            run("chown", "65534:65534", out.toString());
        }

        Run run = matrix(out);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(out)).isEqualTo(MATRIX);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r-----");
        if (ROOT) {
            assertThat(Files.getAttribute(out, "unix:uid")).isEqualTo(65534);
            assertThat(Files.getAttribute(out, "unix:gid")).isEqualTo(65534);
        }
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aLinkToARegularFileReplacesThatFileAndStaysALink() throws IOException {
        Path target = Files.writeString(dir.resolve("real.json"), "old\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target.getFileName());

        Run run = matrix(link);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(target)).isEqualTo(MATRIX);
    }

    @Test
    void dashIsStandardOutput() throws IOException {
        Run run = Run.of("matrix", "--snapshot", SNAPSHOT.toString(), "--hosts", "studio-a,studio-b", "-o", "-");

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo(MATRIX);
        assertThat(Path.of("-")).doesNotExist();
    }

    @Test
    void aDirectoryAndTheRootAreRefused() {
        Run intoDir = matrix(dir);
        Run root = matrix(Path.of("/"));

        assertThat(intoDir).isEqualTo(new Run(1, "", "railmap: refusing -o " + dir + ": it is a directory, not a regular file; "
                + "railmap writes only regular files (-o - writes to standard output)\n"));
        assertThat(root.code()).isEqualTo(1);
        assertThat(root.err()).isEqualTo("railmap: refusing -o /: it is a directory, not a regular file; railmap writes only regular files "
                + "(-o - writes to standard output)\n");
    }

    @Test
    void aFileNamedByAParameterIsNamedSoInTheError() {
        assertThatThrownBy(() -> OutputFile.write(dir, "x", "FILE")).isInstanceOf(UserError.class)
                .hasMessage("refusing FILE " + dir + ": it is a directory, not a regular file; railmap writes only regular files");
        assertThatThrownBy(() -> OutputFile.write(dir.resolve("missing/out.json"), "x", "FILE")).isInstanceOf(UserError.class)
                .hasMessage("cannot write FILE " + dir.resolve("missing/out.json") + ": its directory does not exist");
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFifoAndALinkToOneAreRefusedAndLeftAsTheyWere() throws Exception {
        Path fifo = dir.resolve("fifo");
        run("mkfifo", fifo.toString());
        Path link = Files.createSymbolicLink(dir.resolve("link"), fifo);

        Run direct = matrix(fifo);
        Run viaLink = matrix(link);

        assertThat(direct.code()).isEqualTo(1);
        assertThat(direct.err()).isEqualTo("railmap: refusing -o " + fifo + ": it is a FIFO (named pipe), not a regular file; "
                + "railmap writes only regular files (-o - writes to standard output)\n");
        assertThat(viaLink.code()).isEqualTo(1);
        assertThat(viaLink.err()).startsWith("railmap: refusing -o " + link + ": it is a FIFO (named pipe)");
        assertThat(Files.getAttribute(fifo, "unix:mode", LinkOption.NOFOLLOW_LINKS)).matches(m -> ((Integer) m & 0170000) == 0010000);
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aDanglingLinkIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));

        Run run = matrix(link);

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("railmap: refusing -o " + link + ": it is a symbolic link to nothing; remove it or name another file\n");
        assertThat(dir.resolve("nowhere")).doesNotExist();
    }

    @Test
    void aNewFileGetsTheModeTheUmaskGives() throws Exception {
        List<Process> runs = new ArrayList<>();
        for (String umask : List.of("022", "077", "002")) {
            runs.add(new ProcessBuilder(CliProcess.shell("umask " + umask + " && exec \"$@\"", List.of(), "matrix", "--snapshot", SNAPSHOT.toString(),
                    "-o", dir.resolve("umask-" + umask + ".json").toString())).redirectErrorStream(true).start());
        }
        for (Process p : runs) {
            assertThat(CliProcess.finish(p)).isEmpty();
            assertThat(p.exitValue()).isZero();
        }

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("umask-022.json")))).isEqualTo("rw-r--r--");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("umask-077.json")))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("umask-002.json")))).isEqualTo("rw-rw-r--");
    }

    /**
     * SIGINT while writing: the JVM stops without finishing the write, and OutputFile's shutdown hook
     * removes the temporary file; the destination is one whole text. Each round starts a JVM that
     * rewrites a 4 MiB file without pause ({@link WriteForever}), so the signal most likely comes in
     * the middle of a write; whether it does or not, nothing but the whole file may be left.
     */
    @Test
    void sigintWhileWritingLeavesNoTemporaryFileAndAWholeFile() throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path out = dir.resolve("big.txt");
        for (int round = 0; round < 3; round++) {
            Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-cp", classPath, WriteForever.class.getName(), out.toString()).redirectErrorStream(true).start();
            try {
                // the first write is done when the JVM says so: the loop is writing from then on
                assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("writing");
                run("kill", "-INT", String.valueOf(p.pid()));
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).isEqualTo(130);
                assertThat(leftovers()).as("round " + round).isEmpty();
                String text = Files.readString(out);
                assertThat(text).hasSize(WriteForever.SIZE).matches(t -> t.chars().distinct().count() == 1, "one text, whole");
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /** Rewrites the file named by its argument, 4 MiB of 'a' then of 'b' and so on, until it is stopped. */
    static final class WriteForever {
        static final int SIZE = 4 << 20;

        public static void main(String[] args) {
            Path file = Path.of(args[0]);
            List<String> texts = List.of("a".repeat(SIZE), "b".repeat(SIZE));
            OutputFile.write(file, texts.get(0));
            System.out.println("writing");
            System.out.flush();
            for (int i = 1; ; i++) {
                OutputFile.write(file, texts.get(i % 2));
            }
        }
    }

    /**
     * As root: a device node made with mknod on a tmpfs mounted in a private mount namespace (so that
     * the real /dev is never at risk), written to directly and through a link, stays the device.
     */
    @Test
    void aDeviceNodeIsRefusedAndStaysADevice() throws Exception {
        assumeTrue(ROOT, "needs root (mknod, mount) to make a device node in a private mount namespace");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")) || Files.isExecutable(Path.of("/bin/unshare")), "no unshare(1) here");
        Path mnt = Files.createDirectories(dir.resolve("mnt"));
        String prelude = "mount -t tmpfs railmap-test " + mnt + " && mknod " + mnt + "/null c 1 3 && ln -s " + mnt + "/null " + mnt
                + "/link && \"$@\" -o " + mnt + "/null; echo \"exit $?\"; \"$@\" -o " + mnt + "/link; echo \"exit $?\"; stat -c '%F %t,%T' "
                + mnt + "/null; ls -A " + mnt;
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private"));
        command.addAll(CliProcess.shell(prelude, List.of(), "matrix", "--snapshot", SNAPSHOT.toString(), "--hosts", "studio-a,studio-b"));

        String output = CliProcess.finish(new ProcessBuilder(command).redirectErrorStream(true).start());

        assertThat(output.lines()).containsExactly(
                "railmap: refusing -o " + mnt + "/null: it is a character device, not a regular file; railmap writes only regular files "
                        + "(-o - writes to standard output)",
                "exit 1",
                "railmap: refusing -o " + mnt + "/link: it is a character device, not a regular file; railmap writes only regular files "
                        + "(-o - writes to standard output)",
                "exit 1",
                "character special file 1,3",
                "link",
                "null");
        assertThat(mnt).isEmptyDirectory(); // the tmpfs went with the namespace
    }
}
