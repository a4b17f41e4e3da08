package io.railmap.matrix.library;

import io.railmap.matrix.model.Names;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An environment file as a shell reads its simple cases ({@code railmap env}'s output, a
 * {@code .env} file, a script of {@code export} lines). Per line (split at LF, a trailing CR
 * dropped): blank, or {@code #} comment, or {@code [export ]KEY=VALUE [# comment]} where KEY is
 * {@code [A-Za-z_][A-Za-z0-9_]*} and VALUE is a run of plain characters, {@code '...'} (taken as is)
 * and {@code "..."} (taken as is, refusing {@code \ $ `} inside, which a shell would expand). Whatever
 * a shell would read otherwise is refused rather than guessed: whitespace, {@code \ $ `}, {@code ;}
 * {@code &} {@code |} {@code <} {@code >} {@code (} {@code )} outside quotes, the pattern characters
 * {@code * ? [} outside quotes (a shell globs them), a {@code ~} outside quotes that starts the value
 * or follows a {@code :} (POSIX tilde expansion in an assignment), an unterminated quote,
 * a line longer than {@value #MAX_LINE_CHARS} characters, a control character (C0, DEL, C1) other than tab. A key given twice takes its last value.
 */
public final class EnvFile {
    /** Longest line read, in characters. */
    public static final int MAX_LINE_CHARS = 4096;
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String GLOB = "*?[";
    private static final String SPECIAL = "\\$`;&|<>()" + GLOB;

    private EnvFile() {
    }

    /**
     * @param name the file's name, for messages
     * @param text its text
     * @return each variable's value, in the order first set
     * @throws IllegalArgumentException naming the file, the line and column, what is wrong and what
     *                                  to do, for whatever the rules above refuse
     */
    public static Map<String, String> parse(String name, String text) {
        Map<String, String> vars = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            int number = i + 1;
            if (line.length() > MAX_LINE_CHARS) {
                throw error(name, number, MAX_LINE_CHARS + 1, "the line is longer than " + MAX_LINE_CHARS + " characters");
            }
            for (int k = 0; k < line.length(); k++) {
                char ch = line.charAt(k);
                if (Character.isISOControl(ch) && ch != '\t') {
                    throw error(name, number, k + 1, String.format("the control character 0x%02x is not text", (int) ch)
                            + "; give a text file of KEY=VALUE lines");
                }
            }
            int c = skipBlanks(line, 0);
            if (c == line.length() || line.charAt(c) == '#') {
                continue;
            }
            if (line.startsWith("export", c) && c + 6 < line.length() && (line.charAt(c + 6) == ' ' || line.charAt(c + 6) == '\t')) {
                c = skipBlanks(line, c + 6);
            }
            int eq = line.indexOf('=', c);
            if (eq < 0 || !KEY.matcher(line.substring(c, eq)).matches()) {
                throw error(name, number, c + 1, "expected KEY=VALUE with KEY of letters, digits and '_' not starting with a digit");
            }
            StringBuilder value = new StringBuilder();
            int p = eq + 1;
            while (p < line.length() && line.charAt(p) != ' ' && line.charAt(p) != '\t') {
                char ch = line.charAt(p);
                if (ch == '\'' || ch == '"') {
                    int end = line.indexOf(ch, p + 1);
                    if (end < 0) {
                        throw error(name, number, p + 1, "the quote " + ch + " is not closed on this line (values span one line)");
                    }
                    String quoted = line.substring(p + 1, end);
                    for (int q = 0; ch == '"' && q < quoted.length(); q++) {
                        if ("\\$`".indexOf(quoted.charAt(q)) >= 0) {
                            throw error(name, number, p + 2 + q, "'" + quoted.charAt(q) + "' inside double quotes would be expanded by a"
                                    + " shell; write the value it stands for, or use single quotes");
                        }
                    }
                    value.append(quoted);
                    p = end + 1;
                } else if (SPECIAL.indexOf(ch) >= 0 || ch == '~' && (p == eq + 1 || line.charAt(p - 1) == ':')) {
                    throw error(name, number, p + 1, "'" + ch + "' unquoted is shell syntax railmap does not read" + (GLOB.indexOf(ch) >= 0
                            ? " (a shell would replace the word with the file names it matches)" : ch == '~' ? " (a shell would put a"
                            + " home directory there)" : "") + "; quote the value ('...') or write what it stands for");
                } else {
                    value.append(ch);
                    p++;
                }
            }
            int rest = skipBlanks(line, p);
            if (rest < line.length() && line.charAt(rest) != '#') {
                throw error(name, number, rest + 1, "unquoted whitespace in the value of " + line.substring(c, eq)
                        + "; quote the value or put a comment after '#'");
            }
            vars.remove(line.substring(c, eq));
            vars.put(line.substring(c, eq), value.toString());
        }
        return vars;
    }

    private static int skipBlanks(String line, int from) {
        int c = from;
        while (c < line.length() && (line.charAt(c) == ' ' || line.charAt(c) == '\t')) {
            c++;
        }
        return c;
    }

    private static IllegalArgumentException error(String name, int line, int column, String what) {
        return new IllegalArgumentException("env file " + Names.escape(name, 256) + " line " + line + " column " + column + ": " + what);
    }
}
