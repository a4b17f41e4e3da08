package io.railmap.cli.options;

import io.railmap.cli.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Reading inputs and writing outputs, with errors a person can act on and no half-written files. */
public final class Files {
    private Files() {
    }

    /**
     * @param path a file to read, as UTF-8
     * @param what what the file is, for messages ("snapshot", "devices file")
     * @return its text
     * @throws UserError when the file is missing, unreadable, a directory or not UTF-8
     */
    public static String read(Path path, String what) {
        try {
            if (java.nio.file.Files.isDirectory(path)) {
                throw new UserError("cannot read " + what + " " + path + ": it is a directory");
            }
            return java.nio.file.Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserError("cannot read " + what + " " + path + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UserError("cannot read " + what + " " + path + ": permission denied");
        } catch (CharacterCodingException e) {
            throw new UserError("cannot read " + what + " " + path + ": it is not UTF-8 text");
        } catch (IOException e) {
            throw new UserError("cannot read " + what + " " + path + ": " + e.getMessage());
        }
    }

    /**
     * Writes text to a file atomically (a temporary file beside it, then a rename), or to
     * {@code out} when no file is given.
     *
     * @param file the destination, or null for {@code out}
     * @param text the whole content
     * @param out  standard output
     * @throws UserError when the file cannot be written; the destination is then untouched
     */
    public static void write(Path file, String text, PrintWriter out) {
        if (file == null) {
            out.print(text);
            out.flush();
            return;
        }
        Path target = file.toAbsolutePath();
        Path tmp = null;
        try {
            tmp = java.nio.file.Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            java.nio.file.Files.writeString(tmp, text, StandardCharsets.UTF_8);
            java.nio.file.Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            throw new UserError("cannot write " + file + ": its directory does not exist");
        } catch (AccessDeniedException e) {
            throw new UserError("cannot write " + file + ": permission denied");
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e.getMessage());
        } finally {
            if (tmp != null) {
                try {
                    java.nio.file.Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the temporary file is gone or was never made; the target is what matters
                }
            }
        }
    }
}
