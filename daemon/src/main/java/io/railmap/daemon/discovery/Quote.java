package io.railmap.daemon.discovery;

import java.nio.file.Path;

/**
 * Shows a value read from the system in a skip reason or note: quoted, escaped, and cut, so that a
 * control character, a terminal escape sequence or a 10 MB value read from a file or a command is
 * never echoed raw into a log line.
 *
 * <p>Escaped: C0 controls and DEL ({@code \n}, {@code \r}, {@code \t}, else {@code \x1b}), the C1
 * range ({@code \u0085}), Unicode bidi controls ({@code \u202e}), a backslash ({@code \\}) and a
 * double quote ({@code \"}). A local stand-in for the name-escaping helper the matrix model's
 * {@code Names} is gaining; to be replaced by it.
 */
public final class Quote {
    /** Characters of a value shown before it is cut. */
    public static final int VALUE_CHARS = 64;
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
        return '"' + escape(value, VALUE_CHARS) + '"';
    }

    /**
     * @param path a path built from names found in a directory tree
     * @return the path, escaped and cut to {@value #PATH_CHARS} characters (not quoted)
     */
    public static String path(Path path) {
        return escape(path.toString(), PATH_CHARS);
    }

    /**
     * @param text any text
     * @param max  the number of characters of {@code text} to show at most
     * @return the text escaped, cut after {@code max} characters with {@code …(N more)}
     */
    public static String escape(String text, int max) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16);
        int shown = Math.min(text.length(), max);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '"':
                    out.append("\\\"");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < shown && Character.isLowSurrogate(text.charAt(i + 1))) {
                        out.append(c).append(text.charAt(++i));
                    } else if ((c >= 0x80 && c <= 0x9f) || isBidiControl(c) || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        if (text.length() > shown) {
            out.append("…(").append(text.length() - shown).append(" more)");
        }
        return out.toString();
    }

    /**
     * @param text any text
     * @return true when it holds a character {@link #escape} would escape other than a backslash or
     *         a quote: a C0 or C1 control, DEL, a bidi control or a lone surrogate half
     */
    public static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
                continue;
            }
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || isBidiControl(c) || Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isBidiControl(char c) {
        return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }
}
