package io.railmap.dist;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a program as a user would, for the archive and package tests: output and errors together, bounded in time. */
final class Commands {
    private Commands() {
    }

    /** What a program printed (output and errors, interleaved) and its exit code. */
    record Result(int code, String out) {
    }

    /**
     * Runs {@code command} in {@code dir} with this process's environment changed by {@code env}
     * (a {@code null} value removes the variable), standard input from /dev/null.
     *
     * @throws AssertionError when it has not finished within {@code seconds} (it is killed)
     */
    static Result run(Path dir, Map<String, String> env, long seconds, String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("railmap-dist-test", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().remove("RAILMAP_JAVA_OPTS");
            pb.environment().remove("RAILMAPD_JAVA_OPTS");
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            Process p = pb.start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(String.join(" ", command) + " did not finish within " + seconds + " s: "
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** @return true when {@code program} is an executable file in a directory of the PATH */
    static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
