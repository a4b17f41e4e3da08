package io.railmap.matrix.model;

import java.util.Locale;
import java.util.Optional;

/**
 * What macOS reports about the Thunderbolt bus behind a port, from
 * {@code system_profiler SPThunderboltDataType -json}. Every bus has a domain UUID; a peer Mac
 * connected to that bus appears under it with the peer bus's domain UUID, so a cable is proven when
 * {@code A.peerDomainUuid == B.domainUuid} and {@code B.peerDomainUuid == A.domainUuid}.
 *
 * @param domainUuid    this bus's {@code domain_uuid_key}, upper case; empty when the capture lacks it
 * @param peerDomainUuid the connected peer host's {@code domain_uuid_key}, upper case; empty when no
 *                      peer host is connected or the capture lacks it
 * @param receptacle    the receptacle number ({@code receptacle_id_key}), which names hardware port
 *                      "Thunderbolt N" in {@code networksetup -listallhardwareports}; at least 1
 * @param linkSpeedGbps the negotiated link speed in Gb/s ({@code current_speed_key} "80 Gb/s");
 *                      empty when nothing is linked
 * @param behindHub     true when the peer host sits behind a hub or dock (one {@code _items} level
 *                      deeper), which rules out RDMA
 * @param peerName      the peer host's {@code _name} (e.g. "Mac Studio"), for people; empty when none
 */
public record Thunderbolt(
        Optional<String> domainUuid,
        Optional<String> peerDomainUuid,
        int receptacle,
        Optional<Double> linkSpeedGbps,
        boolean behindHub,
        Optional<String> peerName) {

    /** RDMA over Thunderbolt needs Thunderbolt 5: a direct link at 80 Gb/s or more. */
    public static final double RDMA_MIN_LINK_GBPS = 80.0;

    /**
     * Normalises UUIDs to upper case.
     *
     * @throws IllegalArgumentException when the receptacle is below 1 or the speed is not a finite
     *                                  number ≥ 0
     */
    public Thunderbolt {
        domainUuid = domainUuid.map(u -> u.toUpperCase(Locale.ROOT));
        peerDomainUuid = peerDomainUuid.map(u -> u.toUpperCase(Locale.ROOT));
        if (receptacle < 1) {
            throw new IllegalArgumentException("Thunderbolt receptacle " + receptacle + " is below 1");
        }
        linkSpeedGbps.ifPresent(s -> Rates.requireRate("Thunderbolt link speed", s));
    }

    /**
     * @return true when this link can carry RDMA: a peer host directly attached (not behind a hub or
     *         dock) at {@value #RDMA_MIN_LINK_GBPS} Gb/s or more; Thunderbolt 4 (40 Gb/s) cannot
     */
    public boolean rdmaCapable() {
        return !behindHub && linkSpeedGbps.map(s -> s >= RDMA_MIN_LINK_GBPS).orElse(false);
    }
}
