package io.railmap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@link MlxRuntime} looks for the checkout that holds {@code bin/mlx-venv}. */
class MlxRuntimeTest {
    @TempDir
    Path dir;

    private Path checkoutAt(String name) throws Exception {
        Path root = dir.resolve(name);
        Files.createDirectories(root.resolve("bin"));
        Files.writeString(root.resolve(MlxRuntime.SCRIPT), "#!/bin/sh\n");
        return root;
    }

    @Test
    void railmapHomeHoldingTheScriptWinsOverTheWorkingDirectory() throws Exception {
        Path home = checkoutAt("home");
        Path other = checkoutAt("other");
        assertThat(MlxRuntime.checkout(home.toString(), other)).contains(home);
    }

    @Test
    void aModuleDirectoryFindsTheCheckoutAboveIt() throws Exception {
        Path root = checkoutAt("checkout");
        Path module = Files.createDirectories(root.resolve("cli/target"));
        assertThat(MlxRuntime.checkout(null, module)).contains(root);
        // a railmap.home without the script (an unpacked release) does not stop the search
        assertThat(MlxRuntime.checkout(dir.toString(), module)).contains(root);
    }

    @Test
    void noCheckoutIsEmpty() throws Exception {
        Path nowhere = Files.createDirectories(dir.resolve("a/b"));
        assertThat(MlxRuntime.checkout("", nowhere)).isEmpty();
    }

    @Test
    void theScriptIsADirectoryNotAFile() throws Exception {
        Path root = dir.resolve("odd");
        Files.createDirectories(root.resolve(MlxRuntime.SCRIPT));
        assertThat(MlxRuntime.checkout(root.toString(), root)).isEmpty();
    }
}
