package io.railmap.cli;

/** The exit codes of {@code railmap}, listed in {@code --help} and docs/cli.md. */
public final class ExitCodes {
    /** Success; for {@code check}, no finding is an error. */
    public static final int OK = 0;
    /** Usage or input error: a bad option, an unreadable or malformed file, an unknown node. */
    public static final int INPUT = 1;
    /** Findings with errors: {@code check} found a fault, or {@code matrix} wrote a matrix jaccl cannot run. */
    public static final int FINDINGS = 2;
    /** {@code matrix --order ring}: no ring order passes through every node. */
    public static final int NO_RING = 3;
    /** The daemon could not be reached (not running, wrong address, no answer in time). */
    public static final int DAEMON = 4;
    /** {@code railmap lab}: the lab cannot be made here (not root, no iproute2) or its daemons did not agree in time. */
    public static final int LAB = 5;
    /**
     * {@code --watch}: a node the file is for ({@code --hosts}, {@code env --node}, or the nodes of the
     * first write) had no record for longer than {@code --max-away}; the file stays as last written.
     */
    public static final int NODE_AWAY = 6;
    /** Internal error: a bug in railmap; the message asks for a report. */
    public static final int INTERNAL = 70;

    /** The table as shown in {@code --help}. */
    public static final String[] HELP = {
        "Exit codes:",
        "  0   success (check: no finding is an error)",
        "  1   usage or input error: bad option, unreadable or malformed file, unknown node",
        "  2   findings with errors (check found a fault; matrix wrote a matrix jaccl cannot run)",
        "  3   matrix --order ring: no ring order passes through every node",
        "  4   the daemon could not be reached",
        "  5   lab: cannot make the lab here, or its daemons did not agree in time",
        "  6   --watch: a node of the file stayed away longer than --max-away",
        "  70  internal error (a bug: please report it)",
    };

    private ExitCodes() {
    }
}
