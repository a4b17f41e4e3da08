package io.railmap.daemon.probe;

import io.railmap.daemon.cluster.config.ClusterKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key that authenticates probe datagrams: HMAC-SHA-256 (the JDK's {@code HmacSHA256}, RFC 2104),
 * keyed with a key derived from the cluster key, so that only daemons holding the cluster key can
 * make a hello another daemon accepts.
 *
 * <p>Derivation: {@code probeKey = HMAC-SHA-256(clusterCipherKey, "railmap probe key v1")}, where
 * {@code clusterCipherKey} is {@link ClusterKey#secretKey()} (itself an HMAC of the secret). HMAC is
 * a pseudo-random function, so the probe key and the cluster's cipher key are independent: knowing
 * one gives nothing about the other, and the probe key is never used for anything but probe tags.
 *
 * <p>A tag is the whole 32-byte HMAC-SHA-256 of the datagram's header and JSON body
 * ({@link ProbeCodec}). Verification compares in constant time. Thread-safe: each call uses its own
 * {@link Mac}.
 */
public final class ProbeKey {
    /** Length of a tag in bytes: the full HMAC-SHA-256 output. */
    public static final int TAG_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final byte[] LABEL = "railmap probe key v1".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;

    private ProbeKey(byte[] key) {
        this.key = new SecretKeySpec(key, HMAC);
    }

    /**
     * @param clusterKey the cluster's shared secret
     * @return the probe key every daemon holding that secret derives alike
     */
    public static ProbeKey derive(ClusterKey clusterKey) {
        Objects.requireNonNull(clusterKey, "clusterKey");
        SecretKeySpec cipherKey = new SecretKeySpec(clusterKey.secretKey().getEncoded(), HMAC);
        return new ProbeKey(hmac(cipherKey, LABEL, 0, LABEL.length));
    }

    /**
     * @param data   the bytes to authenticate
     * @param offset where they start
     * @param length how many
     * @return the {@value #TAG_BYTES}-byte tag
     */
    public byte[] tag(byte[] data, int offset, int length) {
        return hmac(key, data, offset, length);
    }

    /**
     * @param data      the bytes that were authenticated
     * @param offset    where they start
     * @param length    how many
     * @param tag       the array holding the tag received
     * @param tagOffset where the {@value #TAG_BYTES} tag bytes start in it
     * @return true when the tag is this key's tag of the data (compared in constant time)
     */
    public boolean verify(byte[] data, int offset, int length, byte[] tag, int tagOffset) {
        if (tagOffset < 0 || tagOffset + TAG_BYTES > tag.length) {
            return false;
        }
        byte[] expected = tag(data, offset, length);
        byte[] received = java.util.Arrays.copyOfRange(tag, tagOffset, tagOffset + TAG_BYTES);
        return MessageDigest.isEqual(expected, received);
    }

    /** @return a description that reveals nothing of the key */
    @Override
    public String toString() {
        return "probe key (HMAC-SHA-256)";
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data, int offset, int length) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            mac.update(data, offset, length);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks HmacSHA256, which every Java 17 has: " + e.getMessage(), e);
        }
    }
}
