package io.railmap.discovery.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The one rule for files railmap reads, against the files that broke it: devices, FIFOs, directories, huge and binary files. */
class InputFileTest {
    @TempDir
    Path dir;

    /** Makes a FIFO with mkfifo(1), or skips where there is none. */
    private Path fifo(String name) throws Exception {
        Path fifo = dir.resolve(name);
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo here: " + e.getMessage());
            throw e;
        }
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();
        return fifo;
    }

    @Test
    void readsARegularFileAndALinkToOne() throws IOException {
        Path file = Files.writeString(dir.resolve("s.json"), "{\"format\": \"railmap-snapshot\"}\n\tü\r\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), file);

        assertThat(InputFile.read(file, InputKind.SNAPSHOT)).isEqualTo("{\"format\": \"railmap-snapshot\"}\n\tü\r\n");
        assertThat(InputFile.read(link, InputKind.SNAPSHOT)).isEqualTo(InputFile.read(file, InputKind.SNAPSHOT));
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCharacterDeviceIsRefusedWithoutBeingRead() {
        assumeTrue(Files.exists(Path.of("/dev/zero")), "no /dev/zero here");

        assertThatThrownBy(() -> InputFile.read(Path.of("/dev/zero"), InputKind.CLUSTER_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--cluster-key-file /dev/zero is a character device, not a regular file; give a regular text file of at most 64 KiB");
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = fifo("f");
        Path link = Files.createSymbolicLink(dir.resolve("link"), fifo);

        assertThatThrownBy(() -> InputFile.read(fifo, InputKind.SNAPSHOT))
                .hasMessage("snapshot " + fifo + " is a FIFO (named pipe), not a regular file; give a regular text file of at most 64 MiB");
        assertThatThrownBy(() -> InputFile.read(link, InputKind.CONFIG))
                .hasMessage("--config " + link + " is a FIFO (named pipe), not a regular file; give a regular text file of at most 64 KiB");
    }

    @Test
    void aDirectoryIsRefused() {
        assertThatThrownBy(() -> InputFile.read(dir, InputKind.DEVICES))
                .hasMessage("devices file " + dir + " is a directory, not a regular file; give a regular text file of at most 16 MiB");
    }

    @ParameterizedTest
    @EnumSource(InputKind.class)
    void aFileOverItsKindsCapIsRefusedBeforeItIsRead(InputKind kind) throws IOException {
        Path big = dir.resolve("big");
        try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(kind.maxBytes() + 1); // sparse: costs no disk, and reading it would find NUL bytes first
        }

        assertThatThrownBy(() -> InputFile.read(big, kind))
                .hasMessage(kind.label() + " " + big + " is " + (kind.maxBytes() + 1) + " bytes, over the limit of " + kind.cap());
    }

    @Test
    void aFileAtItsCapIsRead() throws IOException {
        Path key = Files.writeString(dir.resolve("key"), "a".repeat((int) InputKind.CLUSTER_KEY.maxBytes()));

        assertThat(InputFile.read(key, InputKind.CLUSTER_KEY)).hasSize(64 * 1024);
    }

    @Test
    void binaryAndNonUtf8ContentIsRefused() throws IOException {
        Path nul = Files.write(dir.resolve("nul"), "interfaces=en*\n\0\0".getBytes(StandardCharsets.US_ASCII));
        Path latin1 = Files.write(dir.resolve("latin1"), "node=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> InputFile.read(nul, InputKind.CONFIG))
                .hasMessage("--config " + nul + " is not text: it holds the control byte 0x00 at offset 15; give a regular text file of at most 64 KiB");
        assertThatThrownBy(() -> InputFile.read(latin1, InputKind.CONFIG))
                .hasMessage("--config " + latin1 + " is not UTF-8 text; give a regular text file of at most 64 KiB");
    }

    @Test
    void aMissingFileIsNamedEscaped() {
        Path missing = dir.resolve("new\nline\u001b[2J");

        assertThatThrownBy(() -> InputFile.read(missing, InputKind.TOPOLOGY))
                .hasMessage("topology file " + dir + "/new\\nline\\x1b[2J does not exist");
    }
}
