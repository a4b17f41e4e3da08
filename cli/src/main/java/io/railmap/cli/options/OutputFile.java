package io.railmap.cli.options;

import io.railmap.cli.UserError;
import io.railmap.discovery.input.FileType;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * Writes an output file ({@code -o FILE}) so that it is never half-written and nothing but a regular
 * file is ever replaced.
 *
 * <ul>
 *   <li>What is replaced: a regular file, or the file a symbolic link names (the link stays). A
 *       directory, {@code /}, a device node ({@code /dev/null}), a FIFO, a socket ({@code /dev/stdout}
 *       is a link to one of these) or a dangling link is refused and left as it was.</li>
 *   <li>How: the text goes to a new temporary file in the same directory, is flushed to disk, and is
 *       renamed over the destination in one step: a reader sees the old file or the new one.</li>
 *   <li>Mode: a replaced file keeps its permission bits and, where the process may set them (as root),
 *       its owner and group; a new file gets {@code 0666 & ~umask}, as a plain create gives (so not
 *       {@code createTempFile}, whose 0600 would hide a devices file from the user who launches jobs).</li>
 *   <li>Limits: the type is checked before the rename, so a device put in the file's place in between
 *       would be replaced (its directory entry, never written into). A JVM stopped mid-write (SIGINT,
 *       {@code --watch}) removes the temporary file in a shutdown hook registered at the first write;
 *       only SIGKILL leaves one.</li>
 * </ul>
 */
public final class OutputFile {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The temporary files being written, for the shutdown hook; the lock of every field below. */
    private static final Set<Path> UNFINISHED = new HashSet<>();
    /** Whether the shutdown hook is registered. */
    private static boolean hooked;
    /** Whether the JVM is stopping (the hook ran): no temporary file is made any more. */
    private static boolean stopping;

    private OutputFile() {
    }

    /**
     * As {@link #write(Path, String, String)} for the file of an {@code -o} option.
     *
     * @param file the destination
     * @param text the whole content, written as UTF-8
     * @throws UserError as {@link #write(Path, String, String)}, naming {@code -o FILE}
     */
    public static void write(Path file, String text) {
        write(file, text, "-o");
    }

    /**
     * @param file the destination
     * @param text the whole content, written as UTF-8
     * @param what how the command line named the file: {@code -o}, or a parameter's label such as
     *             {@code FILE}; errors name it followed by the file
     * @throws UserError with one line naming {@code what} and the file when it is not a regular file
     *                   (saying what it is), its directory is missing or not writable, or the write
     *                   fails; the destination is then untouched and no temporary file is left
     */
    public static void write(Path file, String text, String what) {
        String name = what + " " + Names.escape(file.toString(), 256);
        Path target;
        PosixFileAttributes replaced = null;
        try {
            target = destination(file, name);
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                replaced = posix(target);
            }
        } catch (IOException e) {
            throw failure(name, e);
        }
        Path tmp = target.resolveSibling("." + shortened(target.getFileName().toString()) + "."
                + HexFormat.of().formatHex(randomBytes()) + ".tmp");
        try {
            // a new file: no attributes, so the OS applies the umask to 0666 as for any plain create; a
            // replacement starts no more open than the file it replaces (the umask may narrow it; keep sets it)
            FileAttribute<?>[] mode = replaced == null ? new FileAttribute<?>[0]
                    : new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(replaced.permissions())};
            try (FileChannel channel = create(tmp, mode)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            if (replaced != null) {
                keep(tmp, replaced);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            syncDirectory(target.getParent());
        } catch (IOException e) {
            synchronized (UNFINISHED) {
                if (stopping) {
                    // the hook removed the temporary file under the write: say so, not what its absence looks like
                    throw new UserError("cannot write " + name + ": the program is stopping; the file is as it was");
                }
            }
            throw failure(name, e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // it was renamed or never made; the destination is what matters
            }
            synchronized (UNFINISHED) {
                UNFINISHED.remove(tmp);
            }
        }
    }

    /**
     * Makes the temporary file, known to the shutdown hook from before it exists: the hook and this
     * take the same lock, so a file is either made before the hook runs (and removed by it) or never.
     *
     * @throws IOException as {@link FileChannel#open}, or when the JVM is stopping
     */
    private static FileChannel create(Path tmp, FileAttribute<?>[] mode) throws IOException {
        synchronized (UNFINISHED) {
            if (!hooked) {
                try {
                    Runtime.getRuntime().addShutdownHook(new Thread(OutputFile::removeUnfinished, "railmap-output-file-cleanup"));
                } catch (IllegalStateException e) {
                    stopping = true; // the JVM is already stopping
                }
                hooked = true;
            }
            if (stopping) {
                throw new IOException("the program is stopping"); // answered as such by write
            }
            UNFINISHED.add(tmp);
            return FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), mode);
        }
    }

    /** The shutdown hook: removes every temporary file still being written; none is made after. */
    private static void removeUnfinished() {
        synchronized (UNFINISHED) {
            stopping = true;
            for (Path tmp : UNFINISHED) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // nothing more can be done while the JVM stops
                }
            }
        }
    }

    /**
     * @return the path to rename onto: the file itself, or the regular file a link names
     * @throws UserError when the destination exists and is not a regular file, or its directory is missing
     */
    private static Path destination(Path file, String name) throws IOException {
        Path absolute = file.toAbsolutePath();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            Path dir = absolute.getParent();
            if (dir == null || !Files.exists(dir)) {
                throw new UserError("cannot write " + name + ": its directory does not exist");
            }
            if (!Files.isDirectory(dir)) {
                throw new UserError("cannot write " + name + ": " + Names.escape(dir.toString(), 256) + " is not a directory");
            }
            return absolute;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(absolute, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw new UserError("refusing " + name + ": it is a symbolic link to nothing; remove it or name another file");
        }
        if (!attributes.isRegularFile()) {
            throw new UserError("refusing " + name + ": it is " + FileType.of(absolute, attributes) + ", not a regular file; railmap "
                    + "writes only regular files" + (name.startsWith("-o ") ? " (-o - writes to standard output)" : ""));
        }
        return absolute.toRealPath();
    }

    private static PosixFileAttributes posix(Path file) throws IOException {
        try {
            return Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return null; // not a POSIX file system: nothing to keep
        }
    }

    /** Gives the new file the mode, and where allowed the owner and group, of the file it replaces. */
    private static void keep(Path tmp, PosixFileAttributes old) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        view.setPermissions(old.permissions());
        PosixFileAttributes now = view.readAttributes();
        try {
            if (!now.group().equals(old.group())) {
                view.setGroup(old.group());
            }
            if (!now.owner().equals(old.owner())) {
                view.setOwner(old.owner());
            }
        } catch (FileSystemException e) {
            // not root: the new file belongs to whoever wrote it, as after any rename
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // not every system opens directories; the rename is still atomic
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** Keeps the temporary file's name within the 255 bytes a file name may have. */
    private static String shortened(String fileName) {
        return fileName.length() <= 100 ? fileName : fileName.substring(0, 100);
    }

    private static UserError failure(String name, IOException e) {
        if (e instanceof AccessDeniedException) {
            return new UserError("cannot write " + name + ": permission denied");
        }
        if (e instanceof NoSuchFileException) {
            return new UserError("cannot write " + name + ": its directory does not exist");
        }
        return new UserError("cannot write " + name + ": " + Names.escape(e.getMessage(), 256));
    }
}
