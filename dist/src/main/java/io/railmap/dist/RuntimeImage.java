package io.railmap.dist;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;

/**
 * Makes the Java runtime of the self-contained archive with jlink: only the modules railmap's jars
 * use ({@code railmap.runtime.modules} in dist/pom.xml, the list {@code jdeps --print-module-deps}
 * gives for them; .ci/run checks that it still does), without debug attributes, header files and man
 * pages, its classes compressed, with a class-data sharing archive of the JDK classes it holds (which
 * brings its start to the JDK's own: {@code railmapd --version} 0.44 s here, 0.56 s without one).
 *
 * <p>The runtime is the JDK that runs the build, for this machine's platform. Given another
 * platform's {@code jmods} directory of exactly the same JDK version, jlink makes a runtime for that
 * platform instead; it then has no class-data sharing archive, which only a JVM of that platform can
 * write (docs/install.md, "Another architecture").
 *
 * <p>Errors: jlink's own message and exit code end the build step with an exception.
 */
public final class RuntimeImage {
    private RuntimeImage() {
    }

    /**
     * @param args the output directory (replaced), the modules (comma-separated), and optionally the
     *             {@code jmods} directory to link from (default: this JDK's)
     */
    public static void main(String[] args) {
        Path out = Path.of(args[0]);
        Directories.delete(out);
        List<String> jlink = new ArrayList<>(List.of("--add-modules", args[1], "--strip-debug", "--no-header-files",
                "--no-man-pages", "--compress=2", "--output", out.toString()));
        if (args.length > 2 && args[2] != null && !args[2].isBlank()) {
            jlink.addAll(0, List.of("--module-path", args[2]));
        } else {
            jlink.add("--generate-cds-archive");
        }
        ToolProvider tool = ToolProvider.findFirst("jlink")
                .orElseThrow(() -> new IllegalStateException("no jlink in " + System.getProperty("java.home") + ": build with a JDK"));
        int code = tool.run(System.out, System.err, jlink.toArray(String[]::new));
        if (code != 0) {
            throw new IllegalStateException("jlink " + String.join(" ", jlink) + " exited " + code);
        }
        System.out.println("runtime: " + args[1] + " in " + out);
    }
}
