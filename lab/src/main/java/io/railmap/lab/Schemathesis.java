package io.railmap.lab;

import java.nio.file.Path;

/**
 * schemathesis (an OpenAPI fuzzer, PyPI) at the version {@code bin/schemathesis-venv} pins, for the API
 * fuzz test against a lab daemon (docs/api-fuzz.md). Made once per JVM, on first use ({@link PinnedPython}).
 */
public final class Schemathesis {
    /** The environment; {@link PinnedPython#unavailable()} says why there is none. */
    public static final PinnedPython RUNTIME = new PinnedPython("bin/schemathesis-venv", "schemathesis");

    private Schemathesis() {
    }

    /**
     * @return schemathesis' command, beside the environment's python
     * @throws LabException when it cannot be made here, saying why
     */
    public static Path command() {
        return RUNTIME.python().resolveSibling("schemathesis");
    }
}
