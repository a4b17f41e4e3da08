package io.railmap.daemon.probe;

/** Why a port stopped counting a far end as its neighbour. */
public enum LossCause {
    /** Nothing heard from the far end within the TTL of its last hello. */
    EXPIRED("ttl expired"),
    /** The far end said goodbye (a hello with TTL 0), typically because its daemon stopped. */
    GOODBYE("goodbye"),
    /** This port lost carrier or stopped being probed. */
    CARRIER("carrier lost");

    private final String words;

    LossCause(String words) {
        this.words = words;
    }

    /** @return the cause in a few words, for log lines ({@code "ttl expired"}) */
    public String words() {
        return words;
    }
}
