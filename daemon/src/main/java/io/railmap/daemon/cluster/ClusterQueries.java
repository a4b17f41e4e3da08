package io.railmap.daemon.cluster;

import java.util.Optional;

/** What the HTTP API asks the cluster member; both are plain queries that never wait on the network. */
@FunctionalInterface
public interface ClusterQueries {
    /** @return the current view, with each member's record version and age */
    Membership membership();

    /** @return whether every member holds this daemon's records ({@link Agreement}); empty when there is no cluster */
    default Optional<Agreement> agreement() {
        return Optional.empty();
    }
}
