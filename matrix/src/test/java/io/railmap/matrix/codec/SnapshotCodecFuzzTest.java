package io.railmap.matrix.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

class SnapshotCodecFuzzTest {
    @FuzzTest(maxExecutions = 20000, maxDuration = "30s")
    void snapshot(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            SnapshotCodec.readSnapshot("fuzz", text);
        } catch (FormatException e) {
            // documented
        }
    }
}
