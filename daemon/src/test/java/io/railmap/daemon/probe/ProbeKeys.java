package io.railmap.daemon.probe;

import io.railmap.daemon.cluster.config.ClusterKey;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Probe keys for tests, derived from cluster keys as the daemon derives them. */
final class ProbeKeys {
    private ProbeKeys() {
    }

    /** The probe key of a cluster key made from {@code seed} (the same seed, the same key). */
    static ProbeKey of(String seed) {
        byte[] secret = (seed + "-0123456789abcdef0123456789abcdef").getBytes(StandardCharsets.US_ASCII);
        return ProbeKey.derive(ClusterKey.parse("test key", Base64.getEncoder().encodeToString(secret)));
    }
}
