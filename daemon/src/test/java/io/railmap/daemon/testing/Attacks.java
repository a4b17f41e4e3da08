package io.railmap.daemon.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the attack suites share: a directory every user can read, holding {@link ProbeAttacker}'s
 * class and the datagrams it sends; starting the attacker in a namespace, as root or as the
 * unprivileged user 65534 (nobody); and reading a daemon's probe drop counters.
 */
public final class Attacks implements AutoCloseable {
    /** The unprivileged user the attacker runs as: nobody. */
    public static final int NOBODY = 65534;
    private static final Pattern DROPPED = Pattern.compile("railmap_probe_dropped_total\\{reason=\"([a-z-]+)\",?} ([0-9.E]+)");
    /** A generation's line of {@code jcmd PID GC.heap_info} on the serial collector, with what it uses in kB. */
    private static final Pattern GENERATION_USED = Pattern.compile("generation\\s+total \\d+K, used (\\d+)K");

    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    /** Makes the directory (mode 0755) and copies the attacker's class file into it. */
    public Attacks() throws IOException {
        dir = Files.createTempDirectory("railmap-attack-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        String classFile = ProbeAttacker.class.getName().replace('.', '/') + ".class";
        Path from = Path.of(ProbeAttacker.class.getProtectionDomain().getCodeSource().getLocation().getPath()).resolve(classFile);
        Path to = dir.resolve("cp").resolve(classFile);
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        for (Path p = to; !p.equals(dir); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
        }
    }

    /** @return a file in the shared directory holding these bytes, readable by every user */
    public Path file(String name, byte[] bytes) throws IOException {
        Path file = Files.write(dir.resolve(name), bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    /** @return a directory in the shared directory the attacker (as root) may write to */
    public Path directory(String name) throws IOException {
        return Files.createDirectories(dir.resolve(name));
    }

    /**
     * Starts the attacker in a namespace.
     *
     * @param lab          the lab
     * @param ns           the namespace
     * @param unprivileged true to run it as user {@value #NOBODY} with no capabilities
     * @param args         the mode and its arguments ({@link ProbeAttacker})
     * @return the process; ended by {@link #close()} if still running
     */
    public Process start(NetnsLab lab, String ns, boolean unprivileged, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (unprivileged) {
            command.addAll(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--inh-caps=-all",
                    "--bounding-set=-all", "--no-new-privs"));
        }
        command.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xmx64m", "-cp", dir.resolve("cp").toString(), ProbeAttacker.class.getName()));
        command.addAll(List.of(args));
        Process p = lab.start(ns, command, dir.resolve("attacker.log"));
        started.add(p);
        return p;
    }

    /** @return what the attackers wrote to standard error */
    public String log() throws IOException {
        Path log = dir.resolve("attacker.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * @param daemon a running daemon
     * @param reason a drop reason's tag ({@code "looped"})
     * @return how many probe datagrams it dropped for that reason, from its {@code /metrics}
     */
    public static long dropped(DaemonProcess daemon, String reason) {
        Matcher m = DROPPED.matcher(daemon.get("/metrics").bodyAsString());
        while (m.find()) {
            if (m.group(1).equals(reason)) {
                return (long) Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }

    /**
     * Ends the daemons (printing their logs), the attackers (printing theirs) and the lab; any may
     * be null (a setup that failed half-way).
     */
    public static void closeAll(NetnsLab lab, Attacks attacks, DaemonProcess... daemons) throws IOException {
        for (DaemonProcess d : daemons) {
            if (d != null) {
                d.close();
                System.err.println("---- log of daemon " + d.node() + " (pid " + d.pid() + ")\n" + d.log());
            }
        }
        if (attacks != null) {
            System.err.println("---- attackers\n" + attacks.log());
            attacks.close();
        }
        if (lab != null) {
            lab.close();
        }
    }

    /**
     * The live heap of a JVM on the serial collector: a full collection ({@code jcmd PID GC.run}), then
     * the sum of what its generations use ({@code jcmd PID GC.heap_info}: the lines {@code def new
     * generation total …K, used …K} and {@code tenured generation total …K, used …K}).
     *
     * @param pid the JVM's process id (a daemon of this JDK; jcmd attaches as the same user)
     * @return kB used by the heap after the collection
     * @throws IOException when jcmd fails or prints no generation
     */
    public static long liveHeapKb(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        Matcher used = GENERATION_USED.matcher(jcmd(pid, "GC.heap_info"));
        long kb = 0;
        int generations = 0;
        while (used.find()) {
            kb += Long.parseLong(used.group(1));
            generations++;
        }
        if (generations == 0) {
            throw new IOException("jcmd " + pid + " GC.heap_info named no generation (not the serial collector?)");
        }
        return kb;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid), command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("jcmd " + pid + " " + command + " failed: " + out);
        }
        return out;
    }

    /** @return the resident set size of a process in kB, from /proc */
    public static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** Ends every attacker still running and removes the directory. */
    @Override
    public void close() throws IOException {
        for (Process p : started) {
            p.destroyForcibly();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
