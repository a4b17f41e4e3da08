package io.railmap.daemon.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HoldingsTest {
    private static final String DIGEST = "sha256:" + "ab".repeat(32);

    private static java.util.Optional<Holdings.Held> decode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return Holdings.decode(bytes, 0, bytes.length);
    }

    @Test
    void aHoldingsMessageRoundTripsAndAnythingElseIsIgnored() {
        Holdings.Held held = new Holdings.Held(DIGEST, 12);
        byte[] bytes = Holdings.encode(held);
        assertThat(bytes.length).isLessThanOrEqualTo(Holdings.MAX_BYTES);
        assertThat(Holdings.decode(bytes, 0, bytes.length)).contains(held);
        assertThat(decode("sha256:" + "AB".repeat(32) + " 12")).isEmpty();
        assertThat(decode(DIGEST + " 1234567890")).isEmpty();
        assertThat(decode(DIGEST + " 12\n")).isEmpty();
        assertThat(decode("{\"node\": \"a\"}")).isEmpty();
        assertThat(Holdings.decode(new byte[] {(byte) 0xff, 's'}, 0, 2)).isEmpty();
        assertThat(Holdings.decode(new byte[4096], 0, 4096)).isEmpty();
    }

    @Test
    void onlyMembersOfTheViewAreKept() {
        Holdings holdings = new Holdings();
        holdings.heard("m1", new Holdings.Held(DIGEST, 1));
        holdings.heard("m2", new Holdings.Held(DIGEST, 2));
        holdings.retain(Set.of("m2", "m3"));
        assertThat(holdings.all()).containsOnlyKeys("m2");
    }
}
