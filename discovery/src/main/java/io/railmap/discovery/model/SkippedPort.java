package io.railmap.discovery.model;

/**
 * A port discovery saw but did not report.
 *
 * @param port   the port as its source names it: {@code mlx5_3/1} (HCA and port number),
 *               {@code eth5} (netdev), {@code receptacle 2} (Thunderbolt)
 * @param reason why it was skipped, as a sentence fragment naming the value or file at fault
 */
public record SkippedPort(String port, String reason) {
    /** @throws IllegalArgumentException when a field is blank */
    public SkippedPort {
        if (port == null || port.isBlank()) {
            throw new IllegalArgumentException("skipped port has no name");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("skipped port " + port + " has no reason");
        }
    }
}
