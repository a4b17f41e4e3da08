package io.railmap.discovery.macos;

import io.railmap.matrix.model.Thunderbolt;
import java.util.List;

/**
 * One host Thunderbolt bus from {@code system_profiler SPThunderboltDataType -json}.
 *
 * @param thunderbolt what the bus reports about its receptacle and the peer host linked to it
 * @param peerHost    true when a peer host (another Mac) is linked, directly or behind a hub
 * @param notes       the optional fields dropped to unknown, each {@code "<field> unknown: <source>: ..."}
 */
record ThunderboltBus(Thunderbolt thunderbolt, boolean peerHost, List<String> notes) {
    ThunderboltBus {
        notes = List.copyOf(notes);
    }
}
