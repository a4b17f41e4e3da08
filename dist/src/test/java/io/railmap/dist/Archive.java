package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/** A release archive as built: its entries by name, in archive order, and unpacking it as a user would. */
final class Archive {
    private Archive() {
    }

    /** @return entry name → entry, in the order the archive lists them */
    static Map<String, TarArchiveEntry> entries(Path archive) throws IOException {
        assertThat(archive).as("the archive (made by ./mvnw package)").isRegularFile();
        Map<String, TarArchiveEntry> entries = new LinkedHashMap<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(archive));
             TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                assertThat(entries.put(e.getName(), e)).as("%s listed twice", e.getName()).isNull();
            }
        }
        return entries;
    }

    /** Unpacks with tar into {@code dir}, as the docs tell a user to. */
    static void unpack(Path archive, Path dir) throws IOException, InterruptedException {
        Commands.Result r = Commands.run(dir, Map.of(), 120, "tar", "-xzf", archive.toString());
        assertThat(r.code()).as(r.out()).isZero();
    }
}
