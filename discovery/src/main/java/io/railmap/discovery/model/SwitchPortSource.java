package io.railmap.discovery.model;

import java.util.List;

/**
 * Tells the switch port at the far end of local ports, from a helper program that knows it (lldpd
 * for LLDP, infiniband-diags for InfiniBand). Holds no state between calls; each call asks again.
 * Calls block (a child process each, bounded in time), so the daemon makes them off its event loops
 * and its discovery poll.
 */
public interface SwitchPortSource {
    /** @return the helper's name for log lines: {@code lldpd}, {@code infiniband-diags} */
    String name();

    /**
     * @param ports this node's ports as discovery last found them (a source that asks per port,
     *              such as InfiniBand's, asks for these only)
     * @return the switch ports it could tell, and notes on neighbours it could not use
     * @throws SourceUnavailableException when the helper cannot be asked at all (not installed,
     *                                    not running, refused, no answer in time); the message names
     *                                    the command or socket and what to do
     */
    SwitchPorts read(List<LocalPort> ports) throws SourceUnavailableException;
}
