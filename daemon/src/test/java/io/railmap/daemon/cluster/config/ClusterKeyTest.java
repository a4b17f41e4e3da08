package io.railmap.daemon.cluster.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterKeyTest {
    private static final String SECRET = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @Test
    void theSameSecretGivesTheSameKeyAndADifferentOneADifferentKey() {
        ClusterKey a = ClusterKey.parse("--cluster-key", SECRET);
        ClusterKey b = ClusterKey.parse("--cluster-key", "  " + SECRET + "\n");
        ClusterKey other = ClusterKey.parse("--cluster-key", Base64.getEncoder().encodeToString("another secret of 32 bytes......".getBytes()));
        assertThat(a).isEqualTo(b);
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint()).matches("[0-9a-f]{8}");
        assertThat(a).isNotEqualTo(other);
        assertThat(a.fingerprint()).isNotEqualTo(other.fingerprint());
        assertThat(a.secretKey().getEncoded()).hasSize(32).isEqualTo(b.secretKey().getEncoded());
        // the cipher key is derived, never the secret itself
        assertThat(a.secretKey().getEncoded()).isNotEqualTo(Base64.getDecoder().decode(SECRET));
    }

    @Test
    void theSecretAppearsInNoStringNorMessage() {
        ClusterKey key = ClusterKey.parse("--cluster-key", SECRET);
        assertThat(key.toString()).doesNotContain(SECRET).isEqualTo("cluster key " + key.fingerprint());
        String shortSecret = Base64.getEncoder().encodeToString("too short".getBytes());
        assertThatThrownBy(() -> ClusterKey.parse("--cluster-key", shortSecret))
                .hasMessage("--cluster-key holds 9 bytes; at least 16 random bytes are needed, e.g. openssl rand -base64 32")
                .message().doesNotContain(shortSecret);
        assertThatThrownBy(() -> ClusterKey.parse("--cluster-key", "not base64 at all!"))
                .hasMessage("--cluster-key is not base64 text; generate a key with: openssl rand -base64 32");
    }

    @Test
    void aKeyFileIsReadAndAnOpenModeIsReported(@TempDir Path dir) throws Exception {
        Path tight = Files.writeString(dir.resolve("tight.key"), SECRET + "\n");
        Files.setPosixFilePermissions(tight, PosixFilePermissions.fromString("rw-------"));
        Path open = Files.writeString(dir.resolve("open.key"), SECRET + "\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));

        ClusterKey.Loaded fromTight = ClusterKey.read(tight);
        assertThat(fromTight.key()).isEqualTo(ClusterKey.parse("x", SECRET));
        assertThat(fromTight.warning()).isNull();
        assertThat(ClusterKey.read(open).warning()).isEqualTo("cluster key file " + open + " is readable by others than its owner; chmod 600 it");
        assertThatThrownBy(() -> ClusterKey.read(dir.resolve("missing.key"))).hasMessage("--cluster-key-file " + dir.resolve("missing.key")
                + " does not exist");
    }
}
