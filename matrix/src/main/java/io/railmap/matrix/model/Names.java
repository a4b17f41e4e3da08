package io.railmap.matrix.model;

/**
 * Shared rules for the names railmap accepts (node names, netdev names, RDMA device names, cluster
 * names), and the one way any text from outside (a name, a value, a file name) is shown in a
 * message, a table or a log line: {@link #escape}.
 */
public final class Names {
    /**
     * The longest name, in UTF-8 bytes: what a probe hello carries, and more than Linux allows for a
     * netdev (15) or an RDMA device (63).
     */
    public static final int MAX_BYTES = 64;
    /** How many characters of a text {@link #escape} shows before cutting it. */
    public static final int SHOWN_CHARS = 64;

    private Names() {
    }

    /**
     * Checks a node name: the rules of {@link #plain}, and no {@code ':'} (which separates node and
     * port in {@code node:port}) and no {@code ','} (which separates hosts in {@code --hosts a,b}).
     *
     * @param what what the name is, for the message (e.g. {@code "node"}, {@code "--node"})
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when the name breaks a rule; the message shows the name
     *                                  escaped and cut ({@link #escape})
     */
    public static String node(String what, String name) {
        plain(what, name);
        if (name.indexOf(':') >= 0 || name.indexOf(',') >= 0) {
            throw new IllegalArgumentException(what + " name \"" + escape(name) + "\" must not contain ':' or ','");
        }
        return name;
    }

    /**
     * Parses a comma-separated list of node names, such as the value of {@code --hosts a,b,c}.
     *
     * @param what  where the list came from, for the message (e.g. {@code "--hosts"})
     * @param value the list
     * @return the names in order, without spaces around them
     * @throws IllegalArgumentException when a name is empty or breaks the rules of {@link #node}
     */
    public static java.util.List<String> nodeList(String what, String value) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String name : value.split(",", -1)) {
            // spaces around a name are dropped; any other character is the name's, to be checked
            String trimmed = name.replaceAll("^[ \t]+|[ \t]+$", "");
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException(what + " \"" + escape(value)
                        + "\" has an empty name: write node names separated by commas, e.g. a,b,c");
            }
            out.add(node(what, trimmed));
        }
        return out;
    }

    /**
     * Checks a port, device or cluster name: not empty, at most {@value #MAX_BYTES} bytes of UTF-8,
     * and no whitespace, control character (C0, DEL, C1), invisible format character (bidi controls,
     * zero-width characters: Unicode category Cf), line or paragraph separator, or lone surrogate.
     *
     * @param what what the name is, for the message (e.g. {@code "netdev"})
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException when the name is null, empty, too long or holds a character
     *                                  above; the message shows the name escaped and cut
     */
    public static String plain(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(what + " name is empty");
        }
        long bytes = utf8Bytes(name);
        if (bytes > MAX_BYTES) {
            throw new IllegalArgumentException(what + " name \"" + escape(name) + "\" is " + bytes + " bytes of UTF-8, over "
                    + MAX_BYTES);
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || hidden(c)) {
                throw new IllegalArgumentException(what + " name \"" + escape(name) + "\" contains "
                        + (hidden(c) ? "a control or invisible character" : "whitespace"));
            }
            i += Character.charCount(c);
        }
        return name;
    }

    /**
     * Checks a free-form value that goes into a line-based output (a path in an environment file):
     * no control, invisible format, line or paragraph separator character, which would split the
     * line or hide what it says.
     *
     * @param what  what the value is, for the message
     * @param value the value
     * @return the value
     * @throws IllegalArgumentException when the value holds such a character; the message shows it
     *                                  escaped and cut
     */
    public static String printable(String what, String value) {
        if (hasHidden(value)) {
            throw new IllegalArgumentException(what + " \"" + escape(value) + "\" holds a control or invisible character");
        }
        return value;
    }

    /**
     * @param text any text
     * @return true when it holds a character {@link #escape} shows as an escape other than a
     *         backslash or a quote: a control, invisible format or separator character, or a lone surrogate
     */
    public static boolean hasHidden(String text) {
        return text.codePoints().anyMatch(Names::hidden);
    }

    /**
     * @param codePoint one character
     * @return true when {@link #escape} shows it as an escape other than a backslash or a quote (as
     *         {@link #hasHidden}): a control, invisible format or separator character, or a lone surrogate
     */
    public static boolean isHidden(int codePoint) {
        return hidden(codePoint);
    }

    /**
     * Any text from outside as it may be shown in a message, table or log line: control characters
     * (C0, DEL, C1), invisible format characters (Unicode category Cf, which holds the bidi
     * controls U+202A–U+202E and U+2066–U+2069 and the zero-width characters), line and paragraph
     * separators and lone surrogates are written as visible escapes ({@code \n}, {@code \r},
     * {@code \t}, {@code \x1b}, <code>&#92;u202e</code>, <code>&#92;U000e0001</code>); a backslash and a double quote
     * are escaped too ({@code \\}, {@code \"}), so that the escapes and a quoted name are unambiguous. Text longer than {@value #SHOWN_CHARS} characters (code points)
     * is cut there and ends with {@code …(N more)}, N being the characters left out.
     *
     * @param text any text, or null
     * @return the text as above; {@code "null"} for null
     */
    public static String escape(String text) {
        return escape(text, SHOWN_CHARS);
    }

    /**
     * As {@link #escape(String)}, cut after {@code maxChars} characters instead (for file names,
     * which are longer than names but still come from outside).
     *
     * @param text     any text, or null
     * @param maxChars how many characters (code points) to show, at least 1
     * @return the text escaped and cut
     * @throws IllegalArgumentException when {@code maxChars} is below 1
     */
    public static String escape(String text, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars " + maxChars + " is below 1");
        }
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), maxChars) + 16);
        int shown = 0;
        int i = 0;
        while (i < text.length() && shown < maxChars) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            shown++;
            if (c == '\\' || c == '"') {
                out.append('\\').append((char) c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c <= 0xff && Character.isISOControl(c)) {
                out.append(String.format("\\x%02x", c));
            } else if (hidden(c)) {
                out.append(c <= 0xffff ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
            } else {
                out.appendCodePoint(c);
            }
        }
        if (i < text.length()) {
            out.append("…(").append(text.codePointCount(i, text.length())).append(" more)");
        }
        return out.toString();
    }

    /** @return the length of the text in UTF-8, counted without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD) */
    private static long utf8Bytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        }
        return bytes;
    }

    /** Control, format (Cf), line/paragraph separator, or a lone surrogate: nothing a reader can see. */
    private static boolean hidden(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }
}
