package io.railmap.matrix.emit;

import io.railmap.matrix.fabric.RailTable;

/**
 * One output of {@code railmap rails --format NAME}: a writer of the rail table, registered once in
 * {@link Formats#RAIL_TABLES}, described as the plan formats are ({@link Format.About}).
 */
public interface RailTableFormat {
    /** @return what the format is; it reads no option, so {@link Format.About#reads()} is empty */
    Format.About about();

    /** @return {@link Format.About#name()} */
    default String name() {
        return about().name();
    }

    /** @return {@link Format.About#textHoldsFindings()}: false when the caller prints the table's findings after it */
    default boolean textHoldsFindings() {
        return about().textHoldsFindings();
    }

    /** @return the table as this format writes it, ending with a newline */
    String write(RailTable table);
}
