package io.railmap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux says about one process at one moment, from {@code /proc/PID/stat} and
 * {@code /proc/PID/status} (proc(5)).
 *
 * @param cpuTicks CPU time of all its threads so far, user and system ({@code utime + stime}), in
 *                 clock ticks ({@link #ticksPerSecond})
 * @param rssKiB   resident set size ({@code VmRSS}), in KiB
 * @param anonKiB  the anonymous part of it ({@code RssAnon}: heap, metaspace, compiled code, stacks),
 *                 in KiB; the rest is files mapped into the process (the JVM's own library and class
 *                 archive, the jars), whose pages every JVM on the machine shares
 * @param threads  its threads ({@code Threads})
 */
record ProcessSample(long cpuTicks, long rssKiB, long anonKiB, int threads) {
    /**
     * @param pid a live process
     * @return its figures now
     * @throws IOException when the process is gone or {@code /proc} cannot be read
     * @throws IllegalStateException when a file lacks a field proc(5) promises
     */
    static ProcessSample of(long pid) throws IOException {
        Path proc = Path.of("/proc", Long.toString(pid));
        String stat = Files.readString(proc.resolve("stat"));
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count fields after the last ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after comm: field 3 (state) is index 0, so utime (14) and stime (15) are indexes 11 and 12
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        String status = Files.readString(proc.resolve("status"));
        return new ProcessSample(ticks, kiB(field(status, "VmRSS:")), kiB(field(status, "RssAnon:")),
                Integer.parseInt(field(status, "Threads:")));
    }

    private static long kiB(String value) {
        return Long.parseLong(value.replace("kB", "").trim());
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                return line.substring(name.length()).trim();
            }
        }
        throw new IllegalStateException("/proc/PID/status has no " + name + " line");
    }

    /** @return the kernel's clock ticks per second ({@code getconf CLK_TCK}), 100 when that fails */
    static long ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
