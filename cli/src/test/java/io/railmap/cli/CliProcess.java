package io.railmap.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code railmap} in a JVM of its own ({@link Main}, as {@code bin/railmap} starts it), for what only a process has: a umask, a heap limit, a mount namespace. */
final class CliProcess {
    private CliProcess() {
    }

    /**
     * @param prelude shell commands run first; {@code "$@"} is the CLI command line (e.g. {@code umask 022 && exec "$@"})
     * @param jvm     JVM options ({@code -Xmx32m}), may be empty
     * @param args    the railmap arguments
     * @return the command for a {@link ProcessBuilder}
     */
    static List<String> shell(String prelude, List<String> jvm, String... args) {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of("sh", "-c", prelude, "sh", ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(jvm);
        command.addAll(List.of("-cp", classPath, Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** @return the process's standard output (and error, when redirected), once it ended within 60 s */
    static String finish(Process p) throws Exception {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("the CLI did not finish within 60 s");
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
