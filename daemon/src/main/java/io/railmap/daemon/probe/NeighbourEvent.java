package io.railmap.daemon.probe;

import io.railmap.matrix.model.PortRef;

/**
 * A change in what one port hears, for one log line each and for whoever keeps this node's record
 * up to date. Every event names the local port (its netdev) and the far end.
 */
public sealed interface NeighbourEvent permits NeighbourEvent.Found, NeighbourEvent.Restarted, NeighbourEvent.Lost {

    /** @return the local port's netdev */
    String port();

    /** @return the far end, {@code node:netdev} */
    PortRef farEnd();

    /** @return one line for the log, e.g. {@code "en6: neighbour b:en7 found"} */
    String describe();

    /**
     * A port hears a far end it did not hear before.
     *
     * @param port      the local netdev
     * @param neighbour the far end
     */
    record Found(String port, Neighbour neighbour) implements NeighbourEvent {
        @Override
        public PortRef farEnd() {
            return neighbour.farEnd();
        }

        @Override
        public String describe() {
            return port + ": neighbour " + neighbour.farEnd() + " found (incarnation " + neighbour.incarnation()
                    + ", API " + neighbour.management() + ")";
        }
    }

    /**
     * A far end a port already heard now speaks with a newer incarnation: its daemon restarted.
     * It stays the port's neighbour.
     *
     * @param port                the local netdev
     * @param neighbour           the far end as the new incarnation describes it
     * @param previousIncarnation the incarnation heard before
     */
    record Restarted(String port, Neighbour neighbour, long previousIncarnation) implements NeighbourEvent {
        @Override
        public PortRef farEnd() {
            return neighbour.farEnd();
        }

        @Override
        public String describe() {
            return port + ": neighbour " + neighbour.farEnd() + " restarted (incarnation " + previousIncarnation
                    + " -> " + neighbour.incarnation() + ")";
        }
    }

    /**
     * A port no longer counts a far end as its neighbour.
     *
     * @param port   the local netdev
     * @param farEnd the far end
     * @param cause  why
     */
    record Lost(String port, PortRef farEnd, LossCause cause) implements NeighbourEvent {
        @Override
        public String describe() {
            return port + ": neighbour " + farEnd + " lost (" + cause.words() + ")";
        }
    }
}
