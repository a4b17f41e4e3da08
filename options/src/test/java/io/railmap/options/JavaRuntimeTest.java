package io.railmap.options;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The runtime line of --version names where bin/pick-java.sh found the runtime, and its home. */
class JavaRuntimeTest {
    private static final String HOME = System.getProperty("java.home");

    @AfterEach
    void clear() {
        System.clearProperty(JavaRuntime.PROPERTY);
    }

    @Test
    void namesEachPlaceTheLauncherTakesARuntimeFrom() {
        System.setProperty(JavaRuntime.PROPERTY, "bundled");
        assertThat(JavaRuntime.describe()).isEqualTo("Java " + Runtime.version() + " (bundled runtime: " + HOME + ")");
        System.setProperty(JavaRuntime.PROPERTY, "JAVA_HOME");
        assertThat(JavaRuntime.describe()).isEqualTo("Java " + Runtime.version() + " (JAVA_HOME: " + HOME + ")");
        System.setProperty(JavaRuntime.PROPERTY, "PATH");
        assertThat(JavaRuntime.describe()).isEqualTo("Java " + Runtime.version() + " (java on the PATH: " + HOME + ")");
    }

    @Test
    void withoutALauncherSaysOnlyTheHome() {
        assertThat(JavaRuntime.describe()).isEqualTo("Java " + Runtime.version() + " (" + HOME + ")");
        System.setProperty(JavaRuntime.PROPERTY, "something else");
        assertThat(JavaRuntime.describe()).isEqualTo("Java " + Runtime.version() + " (" + HOME + ")");
    }
}
