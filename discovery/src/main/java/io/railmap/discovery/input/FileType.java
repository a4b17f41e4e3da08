package io.railmap.discovery.input;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/** What a file that is not a regular file is, in words, for the messages that refuse it. */
public final class FileType {
    private FileType() {
    }

    /**
     * @param path       the file (its {@code unix:mode} is read where the platform has it)
     * @param attributes its attributes, links followed
     * @return {@code "a directory"}, {@code "a FIFO (named pipe)"}, {@code "a character device"},
     *         {@code "a block device"}, {@code "a socket"}, {@code "a regular file"}, or
     *         {@code "a special file"} when the platform does not say
     */
    public static String of(Path path, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        if (attributes.isRegularFile()) {
            return "a regular file";
        }
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode");
            switch (mode & 0170000) {
                case 0010000:
                    return "a FIFO (named pipe)";
                case 0020000:
                    return "a character device";
                case 0060000:
                    return "a block device";
                case 0140000:
                    return "a socket";
                default:
                    return "a special file";
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a special file";
        }
    }
}
