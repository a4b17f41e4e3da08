package io.railmap.discovery.jobs;

import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.model.JobVariables;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a process's environment as Linux gives it ({@code /proc/PID/environ}: {@code NAME=value}
 * entries, each ended by a NUL byte; proc(5)) and keeps only the variables of
 * {@link JobVariables#NAMES}. Everything else is skipped byte by byte as it streams past: no other
 * variable's name longer than {@value #MAX_NAME_BYTES} bytes, and no other variable's value at all,
 * is ever copied out of the read buffer, and that buffer is zeroed before {@link #read} returns.
 *
 * <p>Bounds: at most {@code maxBytes} bytes are read (the rest of a larger environment is not seen,
 * and {@link Found#cut()} says so); a kept value is at most {@link JobVariables#MAX_VALUE_CHARS}
 * bytes, strict UTF-8 and printable ({@link Names#hasHidden}), else it is dropped and its name (an
 * allow-listed one) told in {@link Found#dropped()}. A name given twice counts by its first entry, as
 * {@code getenv(3)} returns it (a first value dropped is not replaced by the second). An entry cut by the byte cap is dropped.
 */
public final class EnvironFilter {
    /** The longest variable name compared with the allow-list, in bytes (the longest allowed is 29). */
    static final int MAX_NAME_BYTES = 64;
    private static final Set<String> ALLOWED = Set.copyOf(JobVariables.NAMES);

    private EnvironFilter() {
    }

    /**
     * What was kept of one environment.
     *
     * @param settings the allow-listed variables and their values, by name
     * @param dropped  allow-listed names whose value was not kept, each with why (too long, not UTF-8, not printable)
     * @param cut      true when the environment was longer than the bytes read
     */
    public record Found(Map<String, String> settings, List<String> dropped, boolean cut) {
        public Found {
            settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
            dropped = List.copyOf(dropped);
        }
    }

    /**
     * @param in       the environment's bytes (the caller closes it)
     * @param maxBytes the most bytes read, at least 1
     * @return the allow-listed variables found in the first {@code maxBytes} bytes
     * @throws IOException when reading fails
     */
    public static Found read(InputStream in, int maxBytes) throws IOException {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes " + maxBytes + " is below 1");
        }
        byte[] buffer = new byte[8192];
        byte[] name = new byte[MAX_NAME_BYTES];
        byte[] value = new byte[JobVariables.MAX_VALUE_CHARS];
        Map<String, String> settings = new TreeMap<>();
        Set<String> seen = new java.util.HashSet<>();
        List<String> dropped = new ArrayList<>();
        int nameLength = 0;
        int valueLength = 0;
        String keeping = null; // the allow-listed name whose value is being read
        boolean inValue = false;
        boolean skipping = false;
        boolean tooLong = false;
        int total = 0;
        boolean cut = false;
        try {
            while (true) {
                int n = in.read(buffer, 0, Math.min(buffer.length, maxBytes - total));
                if (n < 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == 0) {
                        if (keeping != null && seen.add(keeping)) { // getenv returns the first, kept or not
                            keep(keeping, value, valueLength, tooLong, settings, dropped);
                        }
                        nameLength = 0;
                        valueLength = 0;
                        keeping = null;
                        inValue = false;
                        skipping = false;
                        tooLong = false;
                    } else if (skipping) {
                        continue;
                    } else if (!inValue) {
                        if (b == '=') {
                            String candidate = new String(name, 0, nameLength, StandardCharsets.ISO_8859_1);
                            if (ALLOWED.contains(candidate)) {
                                keeping = candidate;
                                inValue = true;
                            } else {
                                skipping = true;
                            }
                        } else if (nameLength == MAX_NAME_BYTES) {
                            skipping = true;
                        } else {
                            name[nameLength++] = b;
                        }
                    } else if (valueLength == value.length) {
                        tooLong = true;
                    } else {
                        value[valueLength++] = b;
                    }
                }
                total += n;
                if (total >= maxBytes) {
                    cut = in.read() >= 0;
                    break;
                }
            }
            return new Found(settings, dropped, cut);
        } finally {
            Arrays.fill(buffer, (byte) 0);
            Arrays.fill(name, (byte) 0);
            Arrays.fill(value, (byte) 0);
        }
    }

    /** Keeps a value of an allow-listed name, or tells why not; shared with {@link PsEnvironments}. */
    static void keep(String name, byte[] value, int length, boolean tooLong, Map<String, String> settings, List<String> dropped) {
        if (tooLong) {
            dropped.add(name + ": longer than " + JobVariables.MAX_VALUE_CHARS + " bytes");
            return;
        }
        java.util.Optional<String> text = Utf8.strict(Arrays.copyOf(value, length));
        if (text.isEmpty()) {
            dropped.add(name + ": not UTF-8");
        } else if (Names.hasHidden(text.get())) {
            dropped.add(name + ": holds a control or invisible character");
        } else {
            settings.put(name, text.get());
        }
    }
}
