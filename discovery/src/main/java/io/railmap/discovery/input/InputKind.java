package io.railmap.discovery.input;

/**
 * The kinds of file railmap reads, each with the name it goes by in messages and the most it reads.
 * The caps are far above any real file (a 1,000-node snapshot is a few MB) and far below what would
 * strain memory.
 */
public enum InputKind {
    /** {@code --snapshot FILE}: a {@code railmap-snapshot} document; at most 64 MiB. */
    SNAPSHOT("snapshot", 64L << 20, true),
    /** A node record file given to {@code railmap snapshot}; at most 16 MiB. */
    RECORD("record file", 16L << 20, true),
    /** A jaccl devices file given to {@code railmap check}; at most 16 MiB. */
    DEVICES("devices file", 16L << 20, true),
    /**
     * An env file given to {@code railmap check --env}; at most 1 MiB. Control bytes are let through
     * here so that its parser refuses them naming the line and column.
     */
    ENV("env file", 1L << 20, false),
    /** {@code railmap lab up --topology FILE}; at most 1 MiB. */
    TOPOLOGY("topology file", 1L << 20, true),
    /**
     * A file of a {@code --macos-capture} directory (a command's saved output); at most 16 MiB. Control
     * bytes are let through, as from the command itself: its parser skips the port or field they are in.
     */
    CAPTURE("capture file", 16L << 20, false),
    /** {@code railmapd --cluster-key-file FILE}: base64 text; at most 64 KiB. */
    CLUSTER_KEY("--cluster-key-file", 64L << 10, true),
    /** {@code railmapd --config FILE}: Java properties; at most 64 KiB. */
    CONFIG("--config", 64L << 10, true),
    /**
     * A devices file or hostfile a running rank's environment names (docs/jobs.md); at most
     * {@link io.railmap.matrix.model.JobVariables#MAX_FILE_CHARS} bytes (256 KiB).
     */
    JOB_FILE("job file", io.railmap.matrix.model.JobVariables.MAX_FILE_CHARS, true);

    private final String label;
    private final long maxBytes;
    private final boolean plainText;

    InputKind(String label, long maxBytes, boolean plainText) {
        this.label = label;
        this.maxBytes = maxBytes;
        this.plainText = plainText;
    }

    /** @return true when the file must hold no control byte other than tab, line feed, carriage return and form feed */
    public boolean plainText() {
        return plainText;
    }

    /** @return how messages name a file of this kind: the flag that names it, or what it is */
    public String label() {
        return label;
    }

    /** @return the largest file of this kind that is read, in bytes */
    public long maxBytes() {
        return maxBytes;
    }

    /** @return {@link #maxBytes} for people: {@code "64 MiB"}, {@code "64 KiB"} */
    public String cap() {
        return maxBytes >= 1L << 20 ? (maxBytes >> 20) + " MiB" : (maxBytes >> 10) + " KiB";
    }
}
