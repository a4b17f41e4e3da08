package io.railmap.cli.commands;

import java.util.ArrayList;
import java.util.List;

/** Rows printed as left-aligned columns two spaces apart, the first row being the header. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    /** @param header the column titles */
    TextTable(String... header) {
        rows.add(header);
    }

    /** Adds a row with one cell per column. */
    TextTable row(String... cells) {
        if (cells.length != rows.get(0).length) {
            throw new IllegalArgumentException("a row has " + cells.length + " cells, the table " + rows.get(0).length + " columns");
        }
        rows.add(cells);
        return this;
    }

    /** @return the table, one line per row, trailing spaces trimmed */
    String render() {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                line.append(String.format("%-" + (width[c] + 2) + "s", row[c]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
