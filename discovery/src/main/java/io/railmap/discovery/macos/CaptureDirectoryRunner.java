package io.railmap.discovery.macos;

import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Answers each command with a file saved from a real run, so discovery can be replayed from another
 * machine ({@code railmap discover --macos-capture DIR}). The directory holds:
 * <ul>
 *   <li>{@code system_profiler.json}: {@code system_profiler SPThunderboltDataType -json} (required)</li>
 *   <li>{@code networksetup.txt}: {@code networksetup -listallhardwareports} (required)</li>
 *   <li>{@code ibv_devinfo.txt}: {@code ibv_devinfo -v} (optional; plain {@code ibv_devinfo} output reads too, without limits)</li>
 *   <li>{@code rdma_ctl.txt}: {@code rdma_ctl status} (optional)</li>
 *   <li>{@code ifconfig.txt}: {@code ifconfig -a} (optional)</li>
 * </ul>
 * A missing file answers as a command that could not run would.
 */
public final class CaptureDirectoryRunner implements CommandRunner {
    private final Path dir;

    /**
     * @param dir the capture directory
     * @throws IllegalArgumentException when it is not a directory
     */
    public CaptureDirectoryRunner(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("capture directory " + dir + " does not exist or is not a directory");
        }
        this.dir = dir;
    }

    /** @throws CommandException when the command's file is missing or breaks the rule of {@link InputFile} */
    @Override
    public CommandOutput run(MacCommand command) throws CommandException {
        Path file = dir.resolve(fileName(command));
        try {
            return new CommandOutput(file.toString(), InputFile.read(file, InputKind.CAPTURE));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage() + " (the output of " + command + ")");
        }
    }

    private static String fileName(MacCommand command) {
        switch (command) {
            case SYSTEM_PROFILER:
                return "system_profiler.json";
            case NETWORKSETUP:
                return "networksetup.txt";
            case IBV_DEVINFO:
                return "ibv_devinfo.txt";
            case RDMA_CTL:
                return "rdma_ctl.txt";
            case IFCONFIG:
                return "ifconfig.txt";
            default:
                throw new IllegalStateException("no capture file for " + command);
        }
    }
}
