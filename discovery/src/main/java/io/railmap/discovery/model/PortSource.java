package io.railmap.discovery.model;

/**
 * Finds this node's ports, once per call. Implementations read one operating system's description
 * of its links and nothing else; they hold no state between calls, so calling again re-reads the
 * system.
 */
public interface PortSource {
    /**
     * Reads the system and reports every port found and every port skipped. Throws nothing but
     * {@link DiscoveryException}, whatever the system says.
     *
     * @return the ports found (neighbours empty), the ports skipped, each with a reason, and notes
     *         on fields dropped to unknown
     * @throws DiscoveryException when an input the whole node depends on is not there at all (the
     *                            message names that input)
     */
    Discovery discover() throws DiscoveryException;
}
