package io.railmap.discovery.jobs;

import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.codec.RingHostsCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.RingEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The files a rank's settings name, read as that process sees them: a path is taken inside the
 * process's own root ({@code /proc/PID/root}, so a file in the job's private {@code /tmp} or its
 * container is found) or, when relative, its working directory ({@code /proc/PID/cwd}). Each is
 * read by {@link InputFile#readRegular}: a regular file (not a link) of at most
 * {@link InputKind#JOB_FILE}'s cap, owned by the user the process runs as (so that a job cannot make
 * the daemon read, or publish the digest of, a file its user does not own), its path without
 * {@code ..}. Of a hostfile only its digest and the rank's own entry are kept ({@link #hostfile}).
 */
final class RankFiles {
    private RankFiles() {
    }

    /**
     * @param proc the proc file system's root ({@code /proc})
     * @param pid  the process
     * @return where a path of process {@code pid} is, seen from here: inside {@code /proc/PID/root} or {@code /proc/PID/cwd}
     */
    static Function<String, Path> inProcess(Path proc, long pid) {
        return value -> proc.resolve(Long.toString(pid)).resolve(value.startsWith("/") ? "root" : "cwd").resolve(value.replaceFirst("^/+", ""));
    }

    /**
     * @param where where the process's path is, seen from here
     * @param uid   the user the process runs as, who must own the file
     * @param value the setting's value: a path as the process sees it
     * @return the file's text
     * @throws IllegalArgumentException when the path is empty or holds {@code ..}, {@code where} refuses it, or the file
     *                                  cannot be read under the rules of the class
     */
    static String read(Function<String, Path> where, int uid, String value) {
        if (value.isEmpty() || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("an empty path");
        }
        for (String part : value.split("/")) {
            if (part.equals("..")) {
                throw new IllegalArgumentException("path " + Names.escape(value, 256) + " holds \"..\"");
            }
        }
        return InputFile.readRegular(where.apply(value), InputKind.JOB_FILE, OptionalInt.of(uid));
    }

    /**
     * The rank's row of its devices file ({@code MLX_IBV_DEVICES}, else {@code JACCL_IBV_DEVICES}),
     * row number {@code MLX_RANK}, else {@code JACCL_RANK}.
     *
     * @return the row; empty when the settings name no devices file or no rank
     * @throws IllegalArgumentException when the file cannot be read or parsed, or has no such row
     */
    static Optional<List<List<String>>> devicesRow(Function<String, Path> where, long pid, int uid, Map<String, String> settings) {
        Optional<String> path = first(settings, "MLX_IBV_DEVICES", "JACCL_IBV_DEVICES");
        Optional<String> rankText = first(settings, "MLX_RANK", "JACCL_RANK");
        if (path.isEmpty() || rankText.isEmpty()) {
            return Optional.empty();
        }
        int rank;
        try {
            rank = Integer.parseInt(rankText.get());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rank " + Names.escape(rankText.get(), 32) + " is not a whole number");
        }
        String text = read(where, uid, path.get());
        List<List<List<String>>> cells = DevicesCodec.read("devices file of process " + pid, text);
        if (rank < 0 || rank >= cells.size()) {
            throw new IllegalArgumentException("devices file has " + cells.size() + " rows, no row for rank " + rank);
        }
        return Optional.of(cells.get(rank));
    }

    /**
     * What a ring rank publishes of the hostfile {@code MLX_HOSTFILE} names.
     *
     * @param digest  the file's SHA-256, lower-case hex: the ranks of one job share it
     * @param entry   the rank's own entry ({@link RingHostsCodec#entry}); empty when it cannot be published
     * @param problem why the entry is not published, in words that never quote the file; empty when it is
     */
    record Hostfile(String digest, Optional<RingEntry> entry, Optional<String> problem) {
    }

    /**
     * @return the hostfile {@code MLX_HOSTFILE} names, read once: its digest and the entry of rank {@code MLX_RANK};
     *         empty when none is named
     * @throws IllegalArgumentException when the file cannot be read
     */
    static Optional<Hostfile> hostfile(Function<String, Path> where, int uid, Map<String, String> settings) {
        Optional<String> path = Optional.ofNullable(settings.get("MLX_HOSTFILE"));
        if (path.isEmpty()) {
            return Optional.empty();
        }
        String text = read(where, uid, path.get());
        String digest;
        try {
            digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
        Optional<String> rank = Optional.ofNullable(settings.get("MLX_RANK"));
        if (rank.isEmpty()) {
            return Optional.of(new Hostfile(digest, Optional.empty(), Optional.of("no MLX_RANK, so no entry of its own")));
        }
        try {
            return Optional.of(new Hostfile(digest, Optional.of(RingHostsCodec.entry(text, rank.get())), Optional.empty()));
        } catch (IllegalArgumentException e) {
            return Optional.of(new Hostfile(digest, Optional.empty(), Optional.of(e.getMessage())));
        }
    }

    private static Optional<String> first(Map<String, String> settings, String name, String other) {
        return Optional.ofNullable(settings.getOrDefault(name, settings.get(other)));
    }
}
