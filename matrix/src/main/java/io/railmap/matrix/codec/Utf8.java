package io.railmap.matrix.codec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Strict UTF-8: the one decoding of bytes from outside (files, datagrams, cluster messages, sysfs)
 * that refuses malformed input instead of replacing it with U+FFFD, so that two different byte
 * strings never read as the same text.
 */
public final class Utf8 {
    private Utf8() {
    }

    /**
     * @param bytes  the bytes
     * @param offset where the text starts
     * @param length how many bytes it has
     * @return the text, or empty when the bytes are not well-formed UTF-8
     */
    public static Optional<String> strict(byte[] bytes, int offset, int length) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** @return {@link #strict(byte[], int, int)} of the whole array */
    public static Optional<String> strict(byte[] bytes) {
        return strict(bytes, 0, bytes.length);
    }
}
