package io.railmap.matrix.emit;

import io.railmap.matrix.fabric.RailTable;
import java.util.Objects;
import java.util.function.Function;

/**
 * One output of {@code railmap rails --format NAME}: a writer of the rail table, registered once in
 * {@link Formats#RAIL_TABLES}, described as the plan formats are ({@link Format.About}; it reads no
 * option).
 *
 * @param about  what the format is
 * @param writer the table as this format writes it, ending with a newline
 */
public record RailTableFormat(Format.About about, Function<RailTable, String> writer) {
    /** Checks that both are given. */
    public RailTableFormat {
        Objects.requireNonNull(about, "about");
        Objects.requireNonNull(writer, "writer");
    }

    /** @return {@link Format.About#name()} */
    public String name() {
        return about.name();
    }

    /** @return {@link Format.About#textHoldsFindings()}: false when the caller prints the table's findings after it */
    public boolean textHoldsFindings() {
        return about.textHoldsFindings();
    }

    /** @return the table as this format writes it, ending with a newline */
    public String write(RailTable table) {
        return writer.apply(table);
    }
}
