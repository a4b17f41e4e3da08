package io.railmap.daemon.testing;

import io.railmap.daemon.Railmapd;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real railmapd JVM on this machine (no namespace), for the tests of what its command line does
 * before and while it starts: exit codes and the one line it prints.
 */
public final class RailmapdJvm {
    private RailmapdJvm() {
    }

    /**
     * How a railmapd run ended.
     *
     * @param exit   its exit code
     * @param stderr everything it printed on standard error
     */
    public record Run(int exit, String stderr) {
    }

    /**
     * @param flags railmapd's flags (node name and the rest as the test needs)
     * @return the running JVM
     */
    public static Process start(List<String> flags) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1",
                "-cp", classPath, Railmapd.class.getName()));
        command.addAll(flags);
        return new ProcessBuilder(command).start();
    }

    /**
     * Waits for a JVM started by {@link #start} to end, at most {@code seconds}.
     *
     * @throws AssertionError when it is still running then (it is killed)
     */
    public static Run finish(Process p, int seconds) throws Exception {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            throw new AssertionError("railmapd did not stop within " + seconds + " s");
        }
        return new Run(p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
