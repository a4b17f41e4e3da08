package io.railmap.daemon.probe;

/**
 * How much the probe holds, whatever arrives: the bounds that keep a flood of forged or replayed
 * hellos from growing the daemon's memory. At a bound the excess is dropped and counted
 * ({@link DropReason#TABLE_FULL}); what is already held (the real cables) stays and keeps being
 * refreshed.
 *
 * <p>Memory at the defaults: a far end is under 1 KB (names of at most 64 bytes, a management
 * address of at most 128 characters), so the table holds at most about 4 MB; the replay state of a
 * sender, or of a pair of port and far end ({@code maxFarEnds} of them), is under 200 bytes, so at
 * most about 2 MB.
 *
 * @param maxFarEndsPerPort far ends one port may hear at once; 1 to 65536. Default
 *                          {@value #DEFAULT_FAR_ENDS_PER_PORT}: a point-to-point cable needs 1, a
 *                          switch segment one per node on it
 * @param maxFarEnds        far ends all ports together may hear; at least {@code maxFarEndsPerPort},
 *                          at most 1,048,576. Default {@value #DEFAULT_FAR_ENDS}
 * @param maxSenders        sending daemons whose newest sequence number is remembered for replay
 *                          protection, least recently heard forgotten first; 1 to 1,048,576. Default
 *                          {@value #DEFAULT_SENDERS}
 * @param reorderWindow     how far behind a sender's newest sequence number a datagram may be and still
 *                          be taken on a port that has not heard that far end before (datagrams of one
 *                          sender leave by several ports and may arrive slightly out of order); 1 to
 *                          65536. Default {@value #DEFAULT_REORDER_WINDOW}
 */
public record ProbeLimits(int maxFarEndsPerPort, int maxFarEnds, int maxSenders, int reorderWindow) {
    /** Default far ends per port. */
    public static final int DEFAULT_FAR_ENDS_PER_PORT = 256;
    /** Default far ends in all. */
    public static final int DEFAULT_FAR_ENDS = 4096;
    /** Default senders remembered. */
    public static final int DEFAULT_SENDERS = 4096;
    /** Default reorder window, in datagrams. */
    public static final int DEFAULT_REORDER_WINDOW = 64;

    /** The defaults above. */
    public static final ProbeLimits DEFAULTS =
            new ProbeLimits(DEFAULT_FAR_ENDS_PER_PORT, DEFAULT_FAR_ENDS, DEFAULT_SENDERS, DEFAULT_REORDER_WINDOW);

    /** @throws IllegalArgumentException naming the limit that is out of its range */
    public ProbeLimits {
        if (maxFarEndsPerPort < 1 || maxFarEndsPerPort > 65_536) {
            throw new IllegalArgumentException("far ends per port " + maxFarEndsPerPort + " is outside 1..65536");
        }
        if (maxFarEnds < maxFarEndsPerPort || maxFarEnds > 1_048_576) {
            throw new IllegalArgumentException("far ends in all " + maxFarEnds + " is outside " + maxFarEndsPerPort + "..1048576");
        }
        if (maxSenders < 1 || maxSenders > 1_048_576) {
            throw new IllegalArgumentException("senders remembered " + maxSenders + " is outside 1..1048576");
        }
        if (reorderWindow < 1 || reorderWindow > 65_536) {
            throw new IllegalArgumentException("reorder window " + reorderWindow + " is outside 1..65536");
        }
    }
}
