package io.railmap.matrix.draw;

import java.util.List;

/**
 * The colour of rail k in every picture railmap draws (the SVG of {@link TopologySvg}, the DOT of
 * {@link io.railmap.matrix.emit.Dot}): Tableau 10, so rail 0 of every pair, and rail 0 of a switched
 * fabric, is the same colour everywhere.
 */
public final class RailColours {
    /** The palette, by rail index modulo its size: {@code #1f77b4} for rail 0, {@code #ff7f0e} for rail 1, ... */
    public static final List<String> PALETTE = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf");

    /** The colour of what is no rail (a cable left out, a switch only one node reaches). */
    public static final String NO_RAIL = "#9e9e9e";

    private RailColours() {
    }

    /**
     * @param rail a rail index, 0 or more
     * @return its colour, {@code #rrggbb}: {@code PALETTE.get(rail % 10)}
     * @throws IllegalArgumentException when {@code rail} is negative
     */
    public static String of(int rail) {
        if (rail < 0) {
            throw new IllegalArgumentException("a rail index is 0 or more, not " + rail);
        }
        return PALETTE.get(rail % PALETTE.size());
    }
}
