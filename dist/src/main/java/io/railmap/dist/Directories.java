package io.railmap.dist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Build steps write into fresh directories, so that nothing of an earlier build (a page of a command since removed) ships. */
final class Directories {
    private Directories() {
    }

    /**
     * Deletes {@code dir} and everything under it, when it exists.
     *
     * @throws UncheckedIOException when something cannot be deleted
     */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
