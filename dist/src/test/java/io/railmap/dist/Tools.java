package io.railmap.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the programs a packaging test needs are here. CI installs them (.ci/run) and sets
 * {@value #REQUIRED_VARIABLE}{@code =required}, so that there a missing program fails the test
 * rather than skipping it.
 */
final class Tools {
    /** Set to {@code required}, a test whose programs are missing fails instead of being skipped. */
    static final String REQUIRED_VARIABLE = "RAILMAP_PACKAGING_TESTS";

    private Tools() {
    }

    /**
     * @param install how to get them (e.g. {@code apt-get install ruby})
     * @param programs programs looked up on the PATH
     * @return why the test is skipped, empty when every program is there
     * @throws AssertionError when one is missing and {@value #REQUIRED_VARIABLE} is {@code required}
     */
    static Optional<String> missing(String install, String... programs) {
        List<String> missing = new ArrayList<>();
        for (String p : programs) {
            if (!Commands.onPath(p)) {
                missing.add(p);
            }
        }
        return skipped(missing.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", missing) + " not on the PATH (" + install + ")"));
    }

    /**
     * @return why a test that needs root (mount namespaces) is skipped, empty as root
     * @throws AssertionError when not root and {@value #REQUIRED_VARIABLE} is {@code required}
     */
    static Optional<String> notRoot() {
        int uid;
        try {
            uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            uid = -1;
        }
        return skipped(uid == 0 ? Optional.empty()
                : Optional.of("not root: mounting over /usr/lib/jvm in a mount namespace needs root (CI runs as root)"));
    }

    private static Optional<String> skipped(Optional<String> why) {
        if (why.isPresent() && "required".equals(System.getenv(REQUIRED_VARIABLE))) {
            throw new AssertionError("the packaging tests are required here (" + REQUIRED_VARIABLE + "=required) but cannot run: " + why.get());
        }
        return why;
    }
}
