package io.railmap.discovery.jobs;

import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.codec.RingHostsCodec;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.RingEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
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
 * {@link InputKind#JOB_FILE}'s cap, its path without {@code ..}, and either owned by the user the
 * process runs as or {@linkplain #everyoneMayRead readable by every user} (so that a job cannot make
 * the daemon read, or publish the digest of, a file its user may not read: root's
 * {@code /etc/railmap/ring-hosts.json}, mode 644 under 755 directories, is read; a file of another
 * user's private directory is not). Of a hostfile only its digest and the rank's own entry are kept
 * ({@link #hostfile}).
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
     * @param uid   the user the process runs as, who must own the file unless every user may read it
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
        return InputFile.readRegular(where.apply(value), InputKind.JOB_FILE, everyoneMayRead(where, value) ? OptionalInt.empty() : OptionalInt.of(uid));
    }

    /**
     * Whether every user of the node may read the file at an absolute path, as the process sees it: the
     * file readable by others ({@code o+r}) and every directory from the process's root down to it
     * searchable by others ({@code o+x}), none of them a symbolic link. Reading such a file, or
     * publishing its digest, tells no one anything they could not read themselves. Mode bits only: an
     * access control list or security module that narrows them further is not consulted, and the bits
     * are read just before the file (a change between the two by the file's owner is the owner's).
     *
     * @return true when so; false for a relative path (its working directory's parents are not walked),
     *         or when any part cannot be read
     */
    static boolean everyoneMayRead(Function<String, Path> where, String value) {
        if (!value.startsWith("/")) {
            return false;
        }
        String[] parts = value.replaceFirst("^/+", "").split("/+");
        try {
            // the root as "/." : the process's root is a link (/proc/PID/root) to the directory asked about
            String directory = "/";
            if (!othersMay(where.apply("/."), PosixFilePermission.OTHERS_EXECUTE, true)) {
                return false;
            }
            for (int i = 0; i < parts.length - 1; i++) {
                directory += parts[i] + "/";
                if (!othersMay(where.apply(directory), PosixFilePermission.OTHERS_EXECUTE, true)) {
                    return false;
                }
            }
            return othersMay(where.apply(value), PosixFilePermission.OTHERS_READ, false);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** @return true when {@code path} is not a link, is a directory when {@code directory}, and others hold {@code permission} */
    private static boolean othersMay(Path path, PosixFilePermission permission, boolean directory) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return !attributes.isSymbolicLink() && attributes.isDirectory() == directory && attributes.permissions().contains(permission);
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
