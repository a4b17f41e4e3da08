package io.railmap.discovery.jobs;

/** Where a node's running ranks come from: one implementation per operating system (docs/jobs.md). */
public interface RankSource {
    /**
     * Looks once (bounded: each implementation says how) and returns the ranks known now.
     *
     * @return the ranks and what the scan read
     * @throws IllegalStateException when the source cannot be read at all this time (the next scan tries again)
     */
    JobScan scan();
}
