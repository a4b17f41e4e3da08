package io.railmap.daemon.cluster.config;

import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The shared secret that turns on authentication and encryption of cluster traffic. Every daemon of
 * a cluster is given the same secret: base64 text of at least {@value #MIN_BYTES} random bytes, as
 * {@code openssl rand -base64 32} prints. The cipher key is derived from it with HMAC-SHA-256 (so
 * the secret itself is never used as a key, and a later key format can derive differently).
 *
 * <p>The secret never appears in {@link #toString()}, logs or exceptions. {@link #fingerprint()}
 * is a short one-way digest that lets an operator check that two daemons hold the same key.
 */
public final class ClusterKey {
    /** Fewest random bytes a secret must hold (128 bits). */
    public static final int MIN_BYTES = 16;
    /** The cipher JGroups' SYM_ENCRYPT runs with this key: authenticated encryption. */
    public static final String CIPHER = "ChaCha20-Poly1305";
    /** Nonce length of {@link #CIPHER}, in bytes. */
    public static final int NONCE_BYTES = 12;
    private static final byte[] KEY_LABEL = "railmap cluster key v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FINGERPRINT_LABEL = "railmap cluster key fingerprint v1".getBytes(StandardCharsets.US_ASCII);

    private final byte[] key;

    private ClusterKey(byte[] secret) {
        this.key = hmac(secret, KEY_LABEL);
        Arrays.fill(secret, (byte) 0);
    }

    /**
     * @param what   where the text came from ({@code --cluster-key}), for messages
     * @param base64 the secret as base64 text; surrounding whitespace and line breaks are ignored
     * @return the key
     * @throws IllegalArgumentException naming {@code what} (never the secret) when the text is not
     *                                  base64 or holds fewer than {@value #MIN_BYTES} bytes
     */
    public static ClusterKey parse(String what, String base64) {
        byte[] secret;
        try {
            // strict: only whitespace and line breaks are dropped (the MIME decoder would skip any junk)
            secret = Base64.getDecoder().decode(base64.replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not base64 text; generate a key with: openssl rand -base64 32");
        }
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException(what + " holds " + secret.length + " bytes; at least " + MIN_BYTES
                    + " random bytes are needed, e.g. openssl rand -base64 32");
        }
        return new ClusterKey(secret);
    }

    /**
     * Reads a key file by the rule of {@link InputFile} (a regular text file of at most
     * {@link InputKind#CLUSTER_KEY}'s 64 KiB). A file that others than its owner may read is accepted,
     * but the returned warning says so.
     *
     * @param file the file, holding base64 text
     * @return the key and an optional warning
     * @throws IllegalArgumentException naming {@code --cluster-key-file} and the file when it is
     *                                  missing, unreadable, not a regular text file within the cap,
     *                                  or does not hold a key
     */
    public static Loaded read(Path file) {
        String text = InputFile.read(file, InputKind.CLUSTER_KEY);
        String shown = Names.escape(file.toString(), 256);
        ClusterKey key = parse("--cluster-key-file " + shown, text);
        String warning = null;
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
                warning = "cluster key file " + shown + " is readable by others than its owner; chmod 600 it";
            }
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        }
        return new Loaded(key, warning);
    }

    /**
     * A key read from a file.
     *
     * @param key     the key
     * @param warning a sentence for the log when the file's mode is too open, or null
     */
    public record Loaded(ClusterKey key, String warning) {
    }

    /** @return the 256-bit key for {@value #CIPHER}, a fresh copy */
    public SecretKey secretKey() {
        return new SecretKeySpec(key.clone(), "ChaCha20");
    }

    /** @return 8 hex digits, the same on every daemon holding this key; reveals nothing usable about it */
    public String fingerprint() {
        return HexFormat.of().formatHex(hmac(key, FINGERPRINT_LABEL), 0, 4);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterKey other && MessageDigest.isEqual(key, other.key);
    }

    @Override
    public int hashCode() {
        return fingerprint().hashCode();
    }

    @Override
    public String toString() {
        return "cluster key " + fingerprint();
    }

    private static byte[] hmac(byte[] secret, byte[] label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(label);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks HmacSHA256, which every Java 17 has: " + e.getMessage(), e);
        }
    }
}
