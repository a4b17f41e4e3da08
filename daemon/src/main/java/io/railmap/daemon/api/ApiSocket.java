package io.railmap.daemon.api;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Makes a path ready for the API's Unix domain socket ({@code --api-socket}) without ever removing
 * what is not a leftover: only a socket file that nobody answers on (left behind by a daemon that
 * was killed) is removed. A socket a process answers on, and anything that is not a socket, is
 * refused, and the file stays as it was.
 */
public final class ApiSocket {
    /** {@code S_IFMT} and the file kinds of {@code stat(2)}, as the JDK's {@code unix:mode} attribute gives them. */
    private static final int KIND = 0170000;
    private static final int SOCKET = 0140000;
    private static final int SYMLINK = 0120000;
    private static final int REGULAR = 0100000;
    private static final int BLOCK_DEVICE = 0060000;
    private static final int DIRECTORY = 0040000;
    private static final int CHAR_DEVICE = 0020000;
    private static final int FIFO = 0010000;

    private ApiSocket() {
    }

    /**
     * Checks the path and removes a stale socket there. A process that binds the path between this
     * check and the daemon's own bind makes the daemon's bind fail ("could not start"), never lose
     * the other's socket.
     *
     * @param path where the API's socket is to be
     * @return whether a stale socket was removed
     * @throws IllegalArgumentException naming the path when its directory does not exist, when a
     *                                  process answers on a socket there ("another daemon serves"),
     *                                  when it is anything but a socket (regular file, directory,
     *                                  symbolic link, FIFO, device), or when it cannot be examined
     *                                  or removed
     */
    public static boolean claim(Path path) {
        String shown = "--api-socket " + path;
        Path dir = path.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(shown + ": directory " + dir + " does not exist: create it, or choose another path");
        }
        int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return false;
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalArgumentException(shown + ": cannot examine it (" + e.getMessage() + ")");
        }
        if ((mode & KIND) != SOCKET) {
            throw new IllegalArgumentException(shown + ": " + path + " is " + kind(mode) + ", not a socket; railmapd replaces only a stale "
                    + "socket of its own: choose another path" + ((mode & KIND) == DIRECTORY ? ", e.g. " + path.resolve("railmapd.sock") : ""));
        }
        if (answers(path)) {
            throw new IllegalArgumentException(shown + ": another daemon serves " + path + ": stop it first, or choose another path");
        }
        try {
            Files.delete(path);
        } catch (NoSuchFileException gone) {
            // removed meanwhile: as good
        } catch (IOException e) {
            throw new IllegalArgumentException(shown + ": cannot remove the stale socket " + path + " (" + e + ")");
        }
        return true;
    }

    /**
     * @return whether a process accepts connections on the socket; a connection still pending (the
     *         listener's backlog is full) counts as answering. Never blocks: the connect is
     *         non-blocking
     * @throws IllegalArgumentException when the socket refuses for another reason than nobody
     *                                  listening (e.g. permission denied)
     */
    private static boolean answers(Path path) {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.configureBlocking(false);
            channel.connect(UnixDomainSocketAddress.of(path));
            return true;
        } catch (ConnectException refused) {
            return false; // ECONNREFUSED: a socket file nobody listens on
        } catch (IOException e) {
            throw new IllegalArgumentException("--api-socket " + path + ": cannot tell whether a daemon serves it (" + e.getMessage()
                    + "); remove it yourself if none does");
        }
    }

    private static String kind(int mode) {
        switch (mode & KIND) {
            case REGULAR:
                return "a regular file";
            case DIRECTORY:
                return "a directory";
            case SYMLINK:
                return "a symbolic link";
            case FIFO:
                return "a FIFO";
            case CHAR_DEVICE:
                return "a character device";
            case BLOCK_DEVICE:
                return "a block device";
            default:
                return "a file of kind " + Integer.toOctalString(mode & KIND);
        }
    }
}
