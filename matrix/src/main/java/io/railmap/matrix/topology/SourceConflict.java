package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;
import java.util.List;

/**
 * A port about which two sources disagree: its Thunderbolt bus pairing (its {@code peerDomainUuid}
 * is the {@code domainUuid} of {@code thunderboltPeer}) names one far end, and the link probe heard
 * others. One of them is wrong (a forged or replayed probe, a stale Thunderbolt report, a cable moved
 * between two readings), and nothing tells which, so none of the port's cables enters any matrix
 * until the sources agree.
 *
 * @param port            the port
 * @param thunderboltPeer the far end its Thunderbolt domain UUIDs name
 * @param probed          the far ends its probe neighbours name, sorted; never just {@code thunderboltPeer}
 */
public record SourceConflict(PortRef port, PortRef thunderboltPeer, List<PortRef> probed) {
    /** Copies the far ends. */
    public SourceConflict {
        probed = List.copyOf(probed);
    }
}
