package io.railmap.daemon.discovery.linux;

import io.railmap.daemon.discovery.SkipException;
import io.railmap.matrix.model.NaturalOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reads sysfs attribute files and directories. Paths are followed through symlinks, as
 * {@code /sys/class/*} entries are symlinks into {@code /sys/devices}. An attribute that exists but
 * cannot be read (the kernel answers {@code EINVAL} for {@code speed} or {@code carrier} on a link
 * without carrier) is reported as absent by {@link #optional}, and as a skip reason by
 * {@link #required}.
 */
final class SysfsFiles {
    private SysfsFiles() {
    }

    /**
     * @param file an attribute file
     * @return its text without surrounding white space
     * @throws SkipException when the file is missing or cannot be read; the reason names it
     */
    static String required(Path file) throws SkipException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            throw new SkipException("no file " + file);
        } catch (IOException e) {
            throw new SkipException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /**
     * @param file an attribute file
     * @return its text without surrounding white space; empty when missing or unreadable
     */
    static Optional<String> optional(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Applies a parser to a file's text, turning its complaint into a skip reason naming the file.
     *
     * @throws SkipException when the parser throws {@link IllegalArgumentException}
     */
    static <T> T parse(Path file, String text, Function<String, T> parser) throws SkipException {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new SkipException(file + ": " + e.getMessage());
        }
    }

    /**
     * @param dir a directory
     * @return its entries (following symlinks), sorted by name with digit runs compared as numbers
     * @throws IOException when the directory cannot be listed
     */
    static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted((a, b) -> NaturalOrder.INSTANCE.compare(name(a), name(b))).toList();
        }
    }

    /** @return the last element of a path, as a string */
    static String name(Path path) {
        return path.getFileName().toString();
    }
}
