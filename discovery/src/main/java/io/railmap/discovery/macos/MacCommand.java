package io.railmap.discovery.macos;

import java.util.List;

/** The commands macOS discovery runs, by argument vector. Each is looked up on the {@code PATH}. */
public enum MacCommand {
    /** The Thunderbolt buses, their receptacles and what is linked to them, as JSON. */
    SYSTEM_PROFILER(List.of("system_profiler", "SPThunderboltDataType", "-json")),
    /** Hardware port names ("Thunderbolt 3") and their BSD interfaces ("Device: en2"). */
    NETWORKSETUP(List.of("networksetup", "-listallhardwareports")),
    /** The RDMA devices, their port states and limits ({@code -v}); absent or failing when RDMA is off. */
    IBV_DEVINFO(List.of("ibv_devinfo", "-v")),
    /** Whether RDMA over Thunderbolt is turned on: prints {@code enabled} or {@code disabled}. */
    RDMA_CTL(List.of("rdma_ctl", "status")),
    /** Every interface's addresses ({@code inet}, {@code inet6}) and each bridge's members. */
    IFCONFIG(List.of("ifconfig", "-a"));

    private final List<String> argv;

    MacCommand(List<String> argv) {
        this.argv = argv;
    }

    /** @return the program and its arguments */
    public List<String> argv() {
        return argv;
    }

    /** @return the command line, for messages ({@code networksetup -listallhardwareports}) */
    @Override
    public String toString() {
        return String.join(" ", argv);
    }
}
