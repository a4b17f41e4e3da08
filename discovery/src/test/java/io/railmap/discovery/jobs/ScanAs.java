package io.railmap.discovery.jobs;

import java.nio.file.Path;

/** One scan of {@code /proc}, printed as {@code unreadable=N ranks=pid,pid}: what {@link LinuxRanksTest} runs as another user. */
public final class ScanAs {
    private ScanAs() {
    }

    public static void main(String[] args) {
        LinuxRanks ranks = new LinuxRanks(Path.of("/proc"));
        int unreadable = 0;
        JobScan scan = null;
        for (int i = 0; i < 8; i++) {
            scan = ranks.scan();
            unreadable += scan.unreadable();
        }
        StringBuilder pids = new StringBuilder();
        scan.ranks().forEach(r -> pids.append(r.pid()).append(','));
        System.out.println("unreadable=" + unreadable + " ranks=" + pids);
    }
}
