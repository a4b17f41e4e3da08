package io.railmap.cli.follow;

/**
 * A node the watched config is for stayed without a record longer than {@code --max-away}: the watch
 * ends with {@link io.railmap.cli.ExitCodes#NODE_AWAY}, the file left as last written.
 */
public final class NodeAway extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the nodes, how long they were away and what to do */
    public NodeAway(String message) {
        super(message);
    }
}
