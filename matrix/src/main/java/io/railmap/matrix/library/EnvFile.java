package io.railmap.matrix.library;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

/**
 * An environment file as its two usual readers read it: a POSIX shell's {@code .} (dot) builtin
 * (a script of {@code export} lines, {@code railmap env}'s output, a {@code .env} file) and systemd's
 * {@code EnvironmentFile=}. Only the cases both read alike are taken; what they would read otherwise
 * is refused or reported, never guessed.
 *
 * <p>Lines are split at LF only. Per line: blank, or {@code #} comment, or {@code [export
 * ]KEY=VALUE [# comment]} where KEY is {@code [A-Za-z_][A-Za-z0-9_]*} and VALUE is a run of plain
 * characters, {@code '...'} (taken as is) and {@code "..."} (taken as is, refusing {@code \ $ `}
 * inside, which a shell would expand). A key given twice takes its last value.
 *
 * <p>Refused, with an {@link IllegalArgumentException} naming the line and column:
 * <ul>
 * <li>outside quotes: whitespace, {@code \ $ `}, {@code ;} {@code &} {@code |} {@code <} {@code >}
 *     {@code (} {@code )}; the pattern characters {@code * ? [} (a shell globs them); a {@code ~}
 *     that starts the value or follows a {@code :} (tilde expansion in an assignment);</li>
 * <li>an unterminated quote; a NUL (the file is no text file: what a shell makes of it is
 *     unspecified); a line longer than {@value #MAX_LINE_CHARS} characters.</li>
 * </ul>
 *
 * <p>Reported ({@link Code#INVISIBLE_CHARACTER}, one finding per line): a character a reader does not
 * see (a carriage return, a CRLF line end included; another control character: C0 other than tab,
 * DEL, C1; an invisible format or separator character, {@link Names#isHidden}) where the shell or
 * systemd then reads the line otherwise than the file shows it: in a value (the shell keeps it), in
 * a key (the shell reads no assignment), or a CR followed by more text (systemd reads that text as a
 * line of its own). An error when the line sets a variable, as shown or as sh reads it; a warning
 * otherwise (a CR alone on a blank line, which sh runs as a command that is not found); none when
 * it ends a comment. The variables are read with those characters left out (what the file shows), so
 * that the library checks still say what else is wrong.
 *
 * <p>Source: POSIX.1-2017 XCU 2.3 (token recognition: only an unquoted {@code <blank>}, i.e. space
 * or tab, or a newline ends a word, so a CR is an ordinary character of the word), 2.6.5 (field
 * splitting at {@code IFS}, by default space, tab and newline, never at a CR) and 2.9.1 (an
 * assignment's value undergoes no field splitting at all), and the {@code dot} special builtin
 * (2.14: it runs the file's commands in the current shell): so {@code KEY=value\r} sets
 * {@code value\r}. systemd ({@code src/basic/env-file.c}, {@code parse_env_file_internal}): both
 * CR and LF end a line (its {@code NEWLINE}), trailing whitespace of an unquoted value is dropped;
 * {@code src/basic/env-util.c}, {@code env_value_is_valid}: a value holding an ASCII control
 * character other than tab (and newline) is invalid, and the service manager ignores the assignment
 * (systemd.exec(5), {@code EnvironmentFile=}).
 *
 * @param variables each variable's value, in the order first set
 * @param findings  the lines holding characters a reader does not see, in line order
 */
public record EnvFile(Map<String, String> variables, List<Finding> findings) {
    /** Longest line read, in characters. */
    public static final int MAX_LINE_CHARS = 4096;
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String GLOB = "*?[";
    private static final String SPECIAL = "\\$`;&|<>()" + GLOB;

    /** Copies the map (keeping its order) and the list. */
    public EnvFile {
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
        findings = List.copyOf(findings);
    }

    /**
     * @param name the file's name, for messages
     * @param text its text
     * @return its variables and findings
     * @throws IllegalArgumentException naming the file, the line and column, what is wrong and what
     *                                  to do, for whatever the rules above refuse
     */
    public static EnvFile parse(String name, String text) {
        Map<String, String> vars = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            int number = i + 1;
            if (raw.length() > MAX_LINE_CHARS) {
                throw error(name, number, MAX_LINE_CHARS + 1, "the line is longer than " + MAX_LINE_CHARS + " characters");
            }
            // the line as the file shows it (hidden characters left out), and each of its characters' column in the raw line
            StringBuilder shown = new StringBuilder(raw.length());
            int[] columns = new int[raw.length() + 1];
            List<Integer> hidden = new ArrayList<>();
            for (int k = 0; k < raw.length(); ) {
                int c = raw.codePointAt(k);
                if (c == 0) {
                    throw error(name, number, k + 1, "a NUL character makes this no text file (what a shell reads then is unspecified); "
                            + "give a text file of KEY=VALUE lines");
                }
                if (c != '\t' && Names.isHidden(c)) {
                    hidden.add(k);
                } else {
                    for (int u = 0; u < Character.charCount(c); u++) {
                        columns[shown.length() + u] = k + u + 1;
                    }
                    shown.appendCodePoint(c);
                }
                k += Character.charCount(c);
            }
            columns[shown.length()] = raw.length() + 1;
            Optional<Map.Entry<String, String>> set = assignment(shown.toString(), index -> columns[index], name, number);
            set.ifPresent(e -> {
                vars.remove(e.getKey());
                vars.put(e.getKey(), e.getValue());
            });
            if (!hidden.isEmpty()) {
                invisible(raw, number, hidden, set).ifPresent(findings::add);
            }
        }
        return new EnvFile(vars, findings);
    }

    /**
     * Reads one line.
     *
     * @param line   the line, without hidden characters
     * @param column the 1-based column in the file's line of the character at an index of {@code line}
     * @return the variable it sets; empty for a blank or comment line
     */
    private static Optional<Map.Entry<String, String>> assignment(String line, IntUnaryOperator column, String name, int number) {
        int c = skipBlanks(line, 0);
        if (c == line.length() || line.charAt(c) == '#') {
            return Optional.empty();
        }
        if (line.startsWith("export", c) && c + 6 < line.length() && (line.charAt(c + 6) == ' ' || line.charAt(c + 6) == '\t')) {
            c = skipBlanks(line, c + 6);
        }
        int eq = line.indexOf('=', c);
        if (eq < 0 || !KEY.matcher(line.substring(c, eq)).matches()) {
            throw error(name, number, column.applyAsInt(c), "expected KEY=VALUE with KEY of letters, digits and '_' not starting with a digit");
        }
        StringBuilder value = new StringBuilder();
        int p = eq + 1;
        while (p < line.length() && line.charAt(p) != ' ' && line.charAt(p) != '\t') {
            char ch = line.charAt(p);
            if (ch == '\'' || ch == '"') {
                int end = line.indexOf(ch, p + 1);
                if (end < 0) {
                    throw error(name, number, column.applyAsInt(p), "the quote " + ch + " is not closed on this line (values span one line)");
                }
                String quoted = line.substring(p + 1, end);
                for (int q = 0; ch == '"' && q < quoted.length(); q++) {
                    if ("\\$`".indexOf(quoted.charAt(q)) >= 0) {
                        throw error(name, number, column.applyAsInt(p + 1 + q), "'" + quoted.charAt(q) + "' inside double quotes would be"
                                + " expanded by a shell; write the value it stands for, or use single quotes");
                    }
                }
                value.append(quoted);
                p = end + 1;
            } else if (SPECIAL.indexOf(ch) >= 0 || ch == '~' && (p == eq + 1 || line.charAt(p - 1) == ':')) {
                throw error(name, number, column.applyAsInt(p), "'" + ch + "' unquoted is shell syntax railmap does not read" + (GLOB.indexOf(ch) >= 0
                        ? " (a shell would replace the word with the file names it matches)" : ch == '~' ? " (a shell would put a"
                        + " home directory there)" : "") + "; quote the value ('...') or write what it stands for");
            } else {
                value.append(ch);
                p++;
            }
        }
        int rest = skipBlanks(line, p);
        if (rest < line.length() && line.charAt(rest) != '#') {
            throw error(name, number, column.applyAsInt(rest), "unquoted whitespace in the value of " + line.substring(c, eq)
                    + "; quote the value or put a comment after '#'");
        }
        return Optional.of(Map.entry(line.substring(c, eq), value.toString()));
    }

    /**
     * The finding for a line holding characters a reader does not see, when a reader takes the line
     * otherwise than the file shows it: where, what the shell reads, what systemd reads, and what to
     * do. None when both read it as shown (a CR ending a comment or a blank line).
     *
     * @param raw    the line as in the file
     * @param hidden the indexes of its hidden characters, ascending (at least one)
     * @param set    what the line sets as shown (read without them)
     */
    private static Optional<Finding> invisible(String raw, int number, List<Integer> hidden, Optional<Map.Entry<String, String>> set) {
        // what sh sets: the line read with the hidden characters in; none when they break the assignment (sh then runs a command)
        Optional<Map.Entry<String, String>> sh;
        try {
            sh = assignment(raw, index -> index + 1, "", number);
        } catch (IllegalArgumentException e) {
            sh = Optional.of(Map.entry("", ""));
        }
        // systemd ends a line at a CR too: what follows one on the line is read as a line of its own
        boolean splits = hidden.stream().anyMatch(k -> raw.charAt(k) == '\r' && !raw.substring(k + 1).isBlank());
        if (sh.equals(set) && !splits) {
            return Optional.empty();
        }
        boolean crlf = hidden.size() == 1 && hidden.get(0) == raw.length() - 1 && raw.endsWith("\r");
        boolean cr = hidden.stream().anyMatch(k -> raw.charAt(k) == '\r');
        boolean control = hidden.stream().anyMatch(k -> raw.charAt(k) != '\r' && (raw.charAt(k) < 0x20 || raw.charAt(k) == 0x7f));
        String what = set.map(e -> e.getKey() + "'s line").orElse("a line that sets nothing");
        String shReads = sh.isPresent() && set.isPresent() && sh.get().getKey().equals(set.get().getKey())
                ? "sh's '.' keeps " + (hidden.size() == 1 ? "it" : "them") + ", setting " + sh.get().getKey() + "=\""
                + Names.escape(sh.get().getValue(), 256) + "\""
                : sh.equals(set) ? "sh's '.' ignores it" : "sh's '.' reads no assignment there (it runs the line as a command)";
        // a variable read otherwise is an error; a line that sets nothing either way only makes sh say "not found"
        Severity severity = set.isPresent() || sh.isPresent() && !sh.get().getKey().isEmpty() ? Severity.ERROR : Severity.WARNING;
        if (crlf) {
            return Optional.of(new Finding(Code.INVISIBLE_CHARACTER, severity, List.of(), Optional.empty(), "line " + number + ": "
                    + what + " ends in a carriage return (a CRLF line end): " + shReads + (set.isPresent() ? ", which the library"
                    + " reads CR included" : "") + "; systemd's EnvironmentFile= ends the line there. Save the file with LF line ends"
                    + " (dos2unix FILE)" + (set.isPresent() ? "; the checks read the value without the CR" : "")));
        }
        StringBuilder chars = new StringBuilder();
        hidden.stream().map(k -> Names.escape(new String(Character.toChars(raw.codePointAt(k))))).distinct()
                .forEach(c -> chars.append(chars.length() == 0 ? "" : " ").append(c));
        String systemd = cr ? "systemd's EnvironmentFile= ends the line at the carriage return"
                : control ? "systemd's EnvironmentFile= ignores the assignment (a value with a control character is invalid)"
                : "systemd's EnvironmentFile= keeps it too";
        return Optional.of(new Finding(Code.INVISIBLE_CHARACTER, severity, List.of(), Optional.empty(), "line " + number
                + " column " + (hidden.get(0) + 1) + ": " + what + " holds " + (hidden.size() == 1 ? "the character " : hidden.size()
                + " characters ") + chars + " a reader does not see: " + shReads + "; " + systemd + ". Remove "
                + (hidden.size() == 1 ? "it" : "them") + "; the checks read the value without " + (hidden.size() == 1 ? "it" : "them")));
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
