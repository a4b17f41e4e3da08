package io.railmap.matrix.check;

import java.util.List;

/** Hosts of an mlx.launch hostfile that match no node railmap knows ({@link HostfileRanks}). */
public final class UnknownHostsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<String> hosts;

    /**
     * @param message names the file, the hosts, the known nodes and what to do
     * @param hosts   the {@code ssh} values that match no node, as in the file (at most
     *                {@link HostfileRanks#SHOWN} of them)
     */
    UnknownHostsException(String message, List<String> hosts) {
        super(message);
        this.hosts = List.copyOf(hosts);
    }

    /** @return the {@code ssh} values that match no node, as in the file: not escaped, at most {@link HostfileRanks#SHOWN} */
    public List<String> hosts() {
        return hosts;
    }
}
