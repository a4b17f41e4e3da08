package io.railmap.discovery.macos;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the fixture copies under {@code src/test/resources/fixtures} and lays out capture directories. */
final class Fixtures {
    private Fixtures() {
    }

    /** @param path relative to {@code fixtures/}, such as {@code macos/networksetup_macmini.txt} */
    static String read(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text between a line {@code from} and the next line starting with {@code until} (or the
     * end), both lines left out.
     */
    static String section(String text, String from, String until) {
        int start = text.indexOf(from + "\n");
        if (start < 0) {
            throw new IllegalArgumentException("no line \"" + from + "\"");
        }
        start += from.length() + 1;
        int end = text.indexOf("\n" + until, start);
        return end < 0 ? text.substring(start) : text.substring(start, end + 1);
    }

    /** The {@code PORTS_M3} block of {@code networksetup_m3ultra_and_m4max.txt}, without its heading. */
    static String networksetupM3Ultra() {
        return section(read("macos/networksetup_m3ultra_and_m4max.txt"), "## PORTS_M3", "## PORTS_M4");
    }

    /** The {@code PORTS_M4} block of {@code networksetup_m3ultra_and_m4max.txt}, without its heading. */
    static String networksetupM4Max() {
        return section(read("macos/networksetup_m3ultra_and_m4max.txt"), "## PORTS_M4", "## ");
    }

    /** Writes a capture directory without {@code ifconfig.txt}; a null text leaves that file out. */
    static Path capture(Path dir, String systemProfiler, String networksetup, String ibvDevinfo, String rdmaCtl) {
        return capture(dir, systemProfiler, networksetup, ibvDevinfo, rdmaCtl, null);
    }

    /** Writes a capture directory; a null text leaves that file out. */
    static Path capture(Path dir, String systemProfiler, String networksetup, String ibvDevinfo, String rdmaCtl, String ifconfig) {
        try {
            Files.createDirectories(dir);
            write(dir.resolve("system_profiler.json"), systemProfiler);
            write(dir.resolve("networksetup.txt"), networksetup);
            write(dir.resolve("ibv_devinfo.txt"), ibvDevinfo);
            write(dir.resolve("rdma_ctl.txt"), rdmaCtl);
            write(dir.resolve("ifconfig.txt"), ifconfig);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) throws IOException {
        if (text != null) {
            Files.writeString(file, text);
        }
    }
}
