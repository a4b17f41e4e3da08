package io.railmap.discovery.model;

import io.railmap.matrix.model.Names;
import java.nio.file.Path;

/**
 * Shows a value read from the system in a skip reason or note: quoted, escaped and cut by
 * {@link Names#escape(String, int)}, so that a control character, a terminal escape sequence or a
 * 10 MB value read from a file or a command is never echoed raw into a log line. Paths are allowed
 * more characters than values.
 */
public final class Quote {
    /** Characters of a value shown before it is cut. */
    public static final int VALUE_CHARS = Names.SHOWN_CHARS;
    /** Characters of a path shown before it is cut (each element is at most 255 bytes on Linux and macOS). */
    public static final int PATH_CHARS = 512;

    private Quote() {
    }

    /**
     * @param value a value as read, any length, any characters
     * @return the value in double quotes, escaped and cut to {@value #VALUE_CHARS} characters
     *         followed by {@code …(N more)} when longer: {@code "4: ACT\x00IVE"}
     */
    public static String value(String value) {
        return '"' + Names.escape(value, VALUE_CHARS) + '"';
    }

    /**
     * @param path a path built from names found in a directory tree
     * @return the path, escaped and cut to {@value #PATH_CHARS} characters (not quoted)
     */
    public static String path(Path path) {
        return Names.escape(path.toString(), PATH_CHARS);
    }

}
