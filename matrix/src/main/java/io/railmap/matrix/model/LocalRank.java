package io.railmap.matrix.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One process of a collective job running on a node, as its node's daemon found it: the process and
 * the collective settings it was started with, nothing else of its environment.
 *
 * <p>Only the variables of {@link JobVariables#NAMES} may be held: an environment holds secrets, and
 * no other value of it may reach a record, a log line, the API or the page (docs/jobs.md).
 *
 * @param pid       the process id, at least 1
 * @param startedMs when the process started, in ms since the Unix epoch (with the pid, the process's
 *                  identity: a pid used again by another process is another rank)
 * @param settings  the collective settings the process was started with: names of
 *                  {@link JobVariables#NAMES} to their values, sorted by name; at most
 *                  {@link JobVariables#MAX_VALUE_CHARS} characters each, printable
 * @param devices   this rank's row of the devices file that {@code MLX_IBV_DEVICES} or
 *                  {@code JACCL_IBV_DEVICES} names: {@code devices[rank][j][k]} as ranks × rails, each
 *                  cell a list of names (empty for {@code null}); empty when there is no such file or it
 *                  could not be read or parsed (the file is read by {@code DevicesCodec}, at most
 *                  {@link JobVariables#MAX_FILE_CHARS} characters)
 * @param hostfile  the SHA-256 (lower-case hex) of the hostfile {@code MLX_HOSTFILE} names (MLX's ring
 *                  backend): the ranks of one ring job share it; empty when there is none or it could not
 *                  be read
 * @param ring      this rank's own entry of that hostfile, entry {@code MLX_RANK} read by the ring backend's
 *                  rules ({@link RingEntry}); empty when there is no hostfile, it could not be read, has no
 *                  such entry, or the entry holds what railmap does not publish (a host name)
 */
public record LocalRank(long pid, long startedMs, Map<String, String> settings, Optional<List<List<String>>> devices,
                        Optional<String> hostfile, Optional<RingEntry> ring) {

    /**
     * @throws IllegalArgumentException when the pid is below 1, the start is negative, a setting's
     *                                  name is not one of {@link JobVariables#NAMES} or its value is
     *                                  too long or holds a control character, the devices row has more
     *                                  than {@link JobVariables#MAX_ROW_CELLS} cells, a cell more than
     *                                  {@link JobVariables#MAX_RAILS} names or a name is empty, longer than
     *                                  {@link JobVariables#MAX_DEVICE_NAME_CHARS} or not printable, or
     *                                  the rank holds more than {@link JobVariables#MAX_RANK_CHARS}
     *                                  characters in all, or it has a ring entry without a hostfile digest
     * @throws NullPointerException     when a component is null
     */
    public LocalRank {
        if (pid < 1) {
            throw new IllegalArgumentException("rank process id " + pid + " is below 1");
        }
        if (startedMs < 0) {
            throw new IllegalArgumentException("rank process " + pid + ": start " + startedMs + " ms is negative");
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String name = Objects.requireNonNull(e.getKey(), "setting name");
            if (!JobVariables.NAMES.contains(name)) {
                throw new IllegalArgumentException("rank process " + pid + ": " + Names.escape(name)
                        + " is not a collective setting railmap may hold (" + String.join(", ", JobVariables.NAMES) + ")");
            }
            String value = Objects.requireNonNull(e.getValue(), "setting value");
            if (value.length() > JobVariables.MAX_VALUE_CHARS) {
                throw new IllegalArgumentException("rank process " + pid + ": " + name + " is " + value.length()
                        + " characters long, over " + JobVariables.MAX_VALUE_CHARS);
            }
            Names.printable(name, value);
            sorted.put(name, value);
        }
        settings = java.util.Collections.unmodifiableMap(sorted);
        devices = devices.map(row -> row.stream().map(List::copyOf).toList());
        long chars = 0;
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            chars += e.getKey().length() + e.getValue().length();
        }
        if (devices.isPresent()) {
            List<List<String>> row = devices.get();
            if (row.size() > JobVariables.MAX_ROW_CELLS) {
                throw new IllegalArgumentException("rank process " + pid + ": devices row of " + row.size() + " cells, over "
                        + JobVariables.MAX_ROW_CELLS);
            }
            for (List<String> cell : row) {
                if (cell.size() > JobVariables.MAX_RAILS) {
                    throw new IllegalArgumentException("rank process " + pid + ": a devices cell of " + cell.size() + " names, over "
                            + JobVariables.MAX_RAILS);
                }
                for (String name : cell) {
                    if (name.isEmpty()) {
                        throw new IllegalArgumentException("rank process " + pid + ": an empty device name in its devices row");
                    }
                    if (name.length() > JobVariables.MAX_DEVICE_NAME_CHARS) {
                        throw new IllegalArgumentException("rank process " + pid + ": device name " + Names.escape(name)
                                + " is longer than " + JobVariables.MAX_DEVICE_NAME_CHARS + " characters");
                    }
                    Names.printable("device name", name);
                    chars += name.length();
                }
            }
        }
        if (ring.isPresent()) {
            if (hostfile.isEmpty()) {
                throw new IllegalArgumentException("rank process " + pid + ": a ring hostfile entry without the hostfile's digest");
            }
            chars += ring.get().addresses().stream().mapToInt(String::length).sum();
        }
        if (chars > JobVariables.MAX_RANK_CHARS) {
            throw new IllegalArgumentException("rank process " + pid + " holds " + chars + " characters of settings and devices, over "
                    + JobVariables.MAX_RANK_CHARS);
        }
        hostfile.ifPresent(h -> {
            if (!h.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("rank process " + pid + ": hostfile digest " + Names.escape(h)
                        + " is not 64 lower-case hex digits");
            }
        });
    }

    /** @return the value of a setting, when the process has it */
    public Optional<String> setting(String name) {
        return Optional.ofNullable(settings.get(name));
    }
}
