package io.railmap.discovery.macos;

import java.util.Optional;

/**
 * One block of {@code networksetup -listallhardwareports}.
 *
 * @param name            the "Hardware Port:" line ({@code Thunderbolt 3}, {@code Wi-Fi})
 * @param device          the "Device:" line, the BSD interface ({@code en2}); empty when missing
 * @param ethernetAddress the "Ethernet Address:" line; empty when missing or {@code N/A}
 * @param problem         why the block cannot be used, naming the source and line (a line that is
 *                        not "Key: value", a Device that is no interface name, a key given twice);
 *                        empty when it can
 */
record HardwarePort(String name, Optional<String> device, Optional<String> ethernetAddress, Optional<String> problem) {
}
