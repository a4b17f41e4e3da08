package io.railmap.discovery.input;

import io.railmap.matrix.codec.Utf8;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.OptionalInt;

/**
 * The one rule for every file railmap is told to read: it must be a regular file (a symbolic link to
 * one is fine) of at most its kind's cap ({@link InputKind#maxBytes()}), holding UTF-8 text: for
 * every kind but command captures ({@link InputKind#plainText()}), no NUL and no control byte other
 * than tab, line feed, carriage return and form feed.
 *
 * <p>The type is checked with {@code stat} before the file is opened, so a FIFO, a device
 * ({@code /dev/zero}), a socket or a directory is refused without opening it: nothing hangs waiting
 * for a writer, nothing reads forever. The read itself stops one byte past the cap, so a file that
 * grows while it is read, or one whose size {@code stat} does not tell ({@code /proc}), costs at
 * most the cap. A symbolic link is resolved once and its target is checked again and opened without
 * following links, so a link re-pointed to a FIFO after the first check is refused, not followed.
 * (A regular file swapped for a FIFO in the instant between that check and the open would still
 * be opened: only someone who may write the file's directory can do that.)
 */
public final class InputFile {
    private InputFile() {
    }

    /**
     * @param path the file, as the user named it
     * @param kind what it is: the name messages use and the cap
     * @return the whole text
     * @throws IllegalArgumentException with one line naming the kind, the file and the rule broken:
     *                                  missing, unreadable, not a regular file (saying what it is),
     *                                  over the cap, not UTF-8, or not text
     */
    public static String read(Path path, InputKind kind) {
        return read(path, kind, true, OptionalInt.empty());
    }

    /**
     * As {@link #read}, for a path that must not be resolved in this process's own root: a file
     * under {@code /proc/PID/root/}, which the kernel resolves in that process's mount namespace
     * and which {@link Path#toRealPath} would resolve in the daemon's. The file itself must be a
     * regular file, not a symbolic link (the links of the directories above it are followed by the
     * kernel); it is checked without following links and opened without following them. A file
     * swapped for a FIFO between that check and the open would still be opened, as in {@link #read}.
     *
     * @param path  the file
     * @param kind  what it is: the name messages use and the cap
     * @param owner when present, the user id that must own the file ({@code unix:uid})
     * @return the whole text
     * @throws IllegalArgumentException as {@link #read}, and when the file is a symbolic link or has another owner
     */
    public static String readRegular(Path path, InputKind kind, OptionalInt owner) {
        return read(path, kind, false, owner);
    }

    /**
     * @param resolve true to follow links to the file and check its real path again before opening it
     *                ({@link #read}); false to refuse a file that is a link ({@link #readRegular})
     */
    private static String read(Path path, InputKind kind, boolean resolve, OptionalInt owner) {
        String name = kind.label() + " " + Names.escape(path.toString(), 256);
        String rule = "; give a regular text file of at most " + kind.cap();
        try {
            BasicFileAttributes attributes = resolve ? Files.readAttributes(path, BasicFileAttributes.class)
                    : Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw new IllegalArgumentException(name + " is " + (attributes.isSymbolicLink() ? "a symbolic link"
                        : FileType.of(path, attributes)) + ", not a regular file" + rule);
            }
            if (attributes.size() > kind.maxBytes()) {
                throw new IllegalArgumentException(name + " is " + attributes.size() + " bytes, over the limit of " + kind.cap());
            }
            if (owner.isPresent()) {
                int uid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
                if (uid != owner.getAsInt()) {
                    throw new IllegalArgumentException(name + " belongs to user " + uid + ", not to user " + owner.getAsInt());
                }
            }
            Path opened = path;
            if (resolve) {
                opened = path.toRealPath();
                if (!Files.readAttributes(opened, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                    throw new IllegalArgumentException(name + " changed while being opened" + rule);
                }
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(opened, LinkOption.NOFOLLOW_LINKS)) {
                bytes = in.readNBytes((int) kind.maxBytes() + 1);
            }
            if (bytes.length > kind.maxBytes()) {
                throw new IllegalArgumentException(name + " holds more than the limit of " + kind.cap());
            }
            return text(name, bytes, kind.plainText(), rule);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(name + " does not exist");
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException(name + " cannot be read: permission denied");
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException(name + " cannot be read: " + Names.escape(String.valueOf(e.getMessage()), 256));
        }
    }

    private static String text(String name, byte[] bytes, boolean plain, String rule) {
        for (int i = 0; plain && i < bytes.length; i++) {
            int b = bytes[i];
            if (b >= 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' || b == 0x7f) {
                throw new IllegalArgumentException(name + " is not text: it holds the control byte " + String.format("0x%02x", b)
                        + " at offset " + i + rule);
            }
        }
        return Utf8.strict(bytes).orElseThrow(() -> new IllegalArgumentException(name + " is not UTF-8 text" + rule));
    }
}
