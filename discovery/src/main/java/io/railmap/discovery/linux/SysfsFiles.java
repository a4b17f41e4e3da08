package io.railmap.discovery.linux;

import io.railmap.discovery.model.Quote;
import io.railmap.discovery.model.SkipException;
import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.model.NaturalOrder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads sysfs attribute files and directories, with bounds. Paths are followed through symlinks,
 * as {@code /sys/class/*} entries are symlinks into {@code /sys/devices}.
 *
 * <p>An attribute is a regular file of at most {@value #MAX_BYTES} bytes (the kernel's page) of
 * UTF-8 text. One that is missing, is not a regular file (nothing else is opened, so a FIFO in a
 * test tree cannot hang discovery) or cannot be read (the kernel answers {@code EINVAL} for
 * {@code speed} or {@code carrier} on a link without carrier) has no value. One that is longer or
 * is not UTF-8 has an odd value: a {@link SkipException} naming the file and what is wrong.
 * Public for the other sources that read one attribute (the InfiniBand source's {@code node_guid}).
 */
public final class SysfsFiles {
    /** Largest attribute read, in bytes: sysfs attributes are at most one 4 KiB page. */
    public static final int MAX_BYTES = 4096;
    /** Most entries listed in one directory. */
    static final int MAX_ENTRIES = 65_536;

    private SysfsFiles() {
    }

    /**
     * @param file an attribute file
     * @return its text without surrounding white space
     * @throws SkipException when the file has no value or an odd one; the reason names it
     */
    public static String required(Path file) throws SkipException {
        return optional(file).orElseThrow(() -> new SkipException(
                (Files.exists(file) ? "cannot read " : "no file ") + Quote.path(file)));
    }

    /**
     * @param file an attribute file
     * @return its text without surrounding white space; empty when it has no value (missing, not a
     *         regular file, unreadable)
     * @throws SkipException when it is longer than {@value #MAX_BYTES} bytes or not UTF-8
     */
    static Optional<String> optional(Path file) throws SkipException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (bytes.length > MAX_BYTES) {
            throw new SkipException(Quote.path(file) + ": longer than " + MAX_BYTES + " bytes, which no sysfs attribute is");
        }
        String text = Utf8.strict(bytes).orElse(null);
        if (text == null) {
            throw new SkipException(Quote.path(file) + ": not UTF-8 text");
        }
        return Optional.of(text.strip());
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
            throw new SkipException(Quote.path(file) + ": " + e.getMessage());
        }
    }

    /**
     * @param dir a directory
     * @return its entries (following symlinks), sorted by name with digit runs compared as numbers
     * @throws IOException when the directory cannot be listed or holds more than
     *                     {@value #MAX_ENTRIES} entries
     */
    static List<Path> entries(Path dir) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path entry : stream) {
                if (entries.size() == MAX_ENTRIES) {
                    throw new IOException("more than " + MAX_ENTRIES + " entries");
                }
                entries.add(entry);
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        entries.sort((a, b) -> NaturalOrder.INSTANCE.compare(name(a), name(b)));
        return entries;
    }

    /** @return the last element of a path, as a string */
    static String name(Path path) {
        return path.getFileName().toString();
    }
}
