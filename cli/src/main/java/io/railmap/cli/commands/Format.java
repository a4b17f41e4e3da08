package io.railmap.cli.commands;

/** Output formats of {@code railmap matrix}. */
public enum Format {
    /** The jaccl devices file (MLX_IBV_DEVICES). */
    JACCL,
    /** The jaccl environment, KEY=VALUE lines. */
    ENV,
    /** An mlx.launch hostfile. */
    LAUNCH,
    /** Matrix, ring flag, rank order and findings together. */
    JSON,
    /** Graphviz DOT of the cable graph. */
    DOT
}
