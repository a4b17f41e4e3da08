package io.railmap.matrix.topology;

import io.railmap.matrix.model.PortRef;
import java.util.List;
import java.util.Objects;

/**
 * A port about which two sources disagree: its pairing (Thunderbolt: its {@code peerDomainUuid} is
 * the {@code domainUuid} of {@code paired}; InfiniBand: the HCA port its NodeInfo neighbour names is
 * {@code paired}'s) names one far end, and the link probe heard others. One of them is wrong (a
 * forged or replayed probe, a stale Thunderbolt or fabric report, a cable moved between two
 * readings), and nothing tells which, so none of the port's cables enters any matrix until the
 * sources agree.
 *
 * @param port    the port
 * @param pairing which pairing names {@code paired}
 * @param paired  the far end its pairing names
 * @param probed  the far ends its probe neighbours name, sorted; never just {@code paired}
 */
public record SourceConflict(PortRef port, Pairing pairing, PortRef paired, List<PortRef> probed) {
    /** A source that pairs the two ends of a cable by identities each end reports of itself and of its peer. */
    public enum Pairing {
        /** Thunderbolt bus domain UUIDs ({@code thunderbolt.domainUuid}, {@code peerDomainUuid}). */
        THUNDERBOLT("Thunderbolt pairing"),
        /** InfiniBand HCA node GUIDs and port numbers ({@code infiniband.nodeGuid}, {@code peerNodeGuid}, {@code peerPort}). */
        INFINIBAND("InfiniBand neighbour");

        private final String phrase;

        Pairing(String phrase) {
            this.phrase = phrase;
        }

        /** @return how messages name it: {@code Thunderbolt pairing}, {@code InfiniBand neighbour} */
        public String phrase() {
            return phrase;
        }
    }

    /** Copies the far ends. */
    public SourceConflict {
        Objects.requireNonNull(pairing, "pairing");
        probed = List.copyOf(probed);
    }
}
