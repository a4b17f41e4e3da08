package io.railmap.options;

/**
 * The second line of {@code railmap --version} and {@code railmapd --version}: which Java runs them
 * and where the launcher found it. {@code bin/pick-java.sh} tries the runtime bundled with a
 * self-contained archive, then {@code JAVA_HOME}, then {@code java} on the {@code PATH}, and passes
 * its choice as the system property {@value #PROPERTY}.
 */
public final class JavaRuntime {
    /** The system property {@code bin/railmap} and {@code bin/railmapd} set: {@code bundled}, {@code JAVA_HOME} or {@code PATH}. */
    public static final String PROPERTY = "railmap.java";

    private JavaRuntime() {
    }

    /**
     * @return e.g. {@code Java 17.0.15+6 (bundled runtime: /opt/railmap-0.1.0-linux-x86_64/runtime)},
     *         {@code Java 21.0.5+11 (JAVA_HOME: /usr/lib/jvm/temurin-21)}, {@code Java 17.0.15+6 (java on the
     *         PATH: /usr/lib/jvm/java-17-openjdk-amd64)}: the version, then where the launcher found the runtime
     *         and its home ({@code java.home}); without the property (not started by a launcher),
     *         {@code Java 17.0.15+6 (/usr/lib/jvm/...)}
     */
    public static String describe() {
        String home = System.getProperty("java.home");
        String from = switch (System.getProperty(PROPERTY, "")) {
            case "bundled" -> "bundled runtime: ";
            case "JAVA_HOME" -> "JAVA_HOME: ";
            case "PATH" -> "java on the PATH: ";
            default -> "";
        };
        return "Java " + Runtime.version() + " (" + from + home + ")";
    }
}
