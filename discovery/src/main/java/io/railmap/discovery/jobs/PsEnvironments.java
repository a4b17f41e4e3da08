package io.railmap.discovery.jobs;

import io.railmap.matrix.model.JobVariables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the output of macOS's {@code ps -axwwE -o pid=,ppid=,uid=,lstart=,command=} run with
 * {@code LC_ALL=C}, as it streams: one line per process, its pid, parent, user id and start
 * ({@code lstart}, five words: {@code Sat Nov 29 04:56:00 2026}, local time), then its command line
 * and, with {@code -E}, its environment, words separated by spaces. Only words of the form
 * {@code NAME=value} whose name is one of {@link JobVariables#NAMES} are kept; every other word is
 * skipped byte by byte, never copied, as {@link EnvironFilter} does for Linux. A value ends at the
 * next space ({@code ps} does not quote), so a kept value holding a space is cut there: the
 * allow-listed variables hold paths, addresses and device lists, which do not.
 *
 * <p>Bounds: at most {@code maxBytes} of output; at most {@value #MAX_LINE_BYTES} bytes of one
 * line (the rest of a longer one is skipped); at most {@value #MAX_HEADER_BYTES} bytes of a line's
 * fields before the command. A process keeps a name's first value; one whose value is too long, not
 * UTF-8 or not printable is dropped and told. Only processes with a setting are returned.
 */
final class PsEnvironments {
    /** The most bytes of one process's line (its arguments and environment). */
    static final int MAX_LINE_BYTES = LinuxRanks.MAX_ENVIRON_BYTES;
    /** The most bytes of the fields before the command: pid, ppid, uid and the five words of lstart. */
    static final int MAX_HEADER_BYTES = 128;
    private static final Set<String> ALLOWED = Set.copyOf(JobVariables.NAMES);
    private static final DateTimeFormatter LSTART = DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy", Locale.ROOT);

    private PsEnvironments() {
    }

    /**
     * One process with settings.
     *
     * @param pid       its process id
     * @param parent    its parent's
     * @param uid       the user it runs as
     * @param startedMs its start, ms since the epoch (second precision)
     * @param settings  its allow-listed settings
     * @param dropped   allow-listed names whose value was not kept, with why
     */
    record Process(long pid, long parent, int uid, long startedMs, Map<String, String> settings, List<String> dropped) {
    }

    /**
     * @param in       the output
     * @param maxBytes the most bytes read
     * @param zone     the zone {@code lstart} is in (the system's)
     * @return the processes that hold a setting, in output order; a line whose fields before the command do not parse is skipped
     * @throws IOException when reading fails
     */
    static List<Process> read(InputStream in, long maxBytes, ZoneId zone) throws IOException {
        byte[] buffer = new byte[8192];
        byte[] header = new byte[MAX_HEADER_BYTES];
        byte[] word = new byte[JobVariables.MAX_VALUE_CHARS + EnvironFilter.MAX_NAME_BYTES];
        List<Process> out = new ArrayList<>();
        Line line = new Line();
        long total = 0;
        try {
            while (total < maxBytes) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, maxBytes - total));
                if (n < 0) {
                    break;
                }
                total += n;
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == '\n') {
                        line.end(header, word, zone, out);
                        line = new Line();
                        continue;
                    }
                    if (++line.bytes > MAX_LINE_BYTES) {
                        continue;
                    }
                    line.add(b, header, word);
                }
            }
            if (total < maxBytes) {
                line.end(header, word, zone, out); // the last line, without its newline
            }
            return out;
        } finally {
            Arrays.fill(buffer, (byte) 0);
            Arrays.fill(word, (byte) 0);
            Arrays.fill(header, (byte) 0);
        }
    }

    /** The state of one line as it streams past. */
    private static final class Line {
        int bytes;
        int headerLength;
        int headerWords; // words seen in the header; the command starts after 8
        boolean inHeaderWord;
        boolean badHeader;
        int wordLength;
        boolean skipping; // the current word is not an allowed NAME=value
        boolean tooLong;
        String keeping;
        final Map<String, String> settings = new TreeMap<>();
        final Set<String> seen = new HashSet<>();
        final List<String> dropped = new ArrayList<>();

        void add(byte b, byte[] header, byte[] word) {
            if (headerWords < 8) {
                boolean space = b == ' ' || b == '\t';
                if (space) {
                    if (inHeaderWord) {
                        inHeaderWord = false;
                        headerWords++;
                        put(header, (byte) ' ');
                    }
                } else {
                    inHeaderWord = true;
                    put(header, b);
                }
                return;
            }
            if (b == ' ') {
                endWord(word);
                return;
            }
            if (skipping) {
                return;
            }
            if (keeping == null) {
                if (b == '=') {
                    String name = new String(word, 0, wordLength, StandardCharsets.ISO_8859_1);
                    if (ALLOWED.contains(name)) {
                        keeping = name;
                        wordLength = 0;
                    } else {
                        skipping = true;
                    }
                } else if (wordLength == EnvironFilter.MAX_NAME_BYTES) {
                    skipping = true;
                } else {
                    word[wordLength++] = b;
                }
            } else if (wordLength == JobVariables.MAX_VALUE_CHARS) {
                tooLong = true;
            } else {
                word[wordLength++] = b;
            }
        }

        private void put(byte[] header, byte b) {
            if (headerLength == header.length) {
                badHeader = true;
            } else {
                header[headerLength++] = b;
            }
        }

        void endWord(byte[] word) {
            if (keeping != null && seen.add(keeping)) {
                EnvironFilter.keep(keeping, word, wordLength, tooLong, settings, dropped);
            }
            Arrays.fill(word, 0, Math.min(word.length, Math.max(wordLength, EnvironFilter.MAX_NAME_BYTES)), (byte) 0);
            wordLength = 0;
            keeping = null;
            skipping = false;
            tooLong = false;
        }

        void end(byte[] header, byte[] word, ZoneId zone, List<Process> out) {
            if (headerWords >= 8) {
                if (bytes <= MAX_LINE_BYTES) {
                    endWord(word); // a word cut by the line cap is not kept
                } else {
                    Arrays.fill(word, (byte) 0);
                }
            }
            if (settings.isEmpty() && dropped.isEmpty() || badHeader || headerWords < 8) {
                return;
            }
            String[] fields = new String(header, 0, headerLength, StandardCharsets.ISO_8859_1).trim().split(" ");
            try {
                long pid = Long.parseLong(fields[0]);
                long parent = Long.parseLong(fields[1]);
                int uid = Integer.parseInt(fields[2]);
                String lstart = String.join(" ", Arrays.asList(fields).subList(4, 8)); // the weekday is left out
                long started = LocalDateTime.parse(lstart, LSTART).atZone(zone).toInstant().toEpochMilli();
                if (pid >= 1 && started >= 0) {
                    out.add(new Process(pid, parent, uid, started, java.util.Collections.unmodifiableMap(new TreeMap<>(settings)), List.copyOf(dropped)));
                }
            } catch (NumberFormatException | DateTimeParseException | ArrayIndexOutOfBoundsException e) {
                // not a line of ps's: skipped
            }
        }
    }
}
