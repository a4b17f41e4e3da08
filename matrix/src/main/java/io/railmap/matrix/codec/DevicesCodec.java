package io.railmap.matrix.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes MLX jaccl devices files, the file {@code MLX_IBV_DEVICES} names (format from
 * MLX {@code mlx/distributed/jaccl/lib/jaccl/jaccl.cpp}, {@code parse_devices_json}): an array of
 * rows, one per rank; cell {@code [i][j]} is {@code null}, a device name ({@code "rdma_en5"}) or an
 * array of names ({@code ["rdma_en3", "rdma_en5"]}, wire k = element k).
 *
 * <p>In memory a devices file is {@code cells[i][j][k]}: ranks × ranks × rails, a {@code null} cell
 * read as an empty list. Rows of the wrong length are kept as they are, for
 * {@link io.railmap.matrix.check.Checker} to report as {@code not-square}; so are empty names, for
 * {@code empty-name}.
 */
public final class DevicesCodec {
    private DevicesCodec() {
    }

    /**
     * @param source what the text came from (a file name), for error messages
     * @param json   a devices document
     * @return {@code cells[i][j][k]}; rows may differ in length
     * @throws FormatException when the text is not JSON, the document or a row is not an array, or a
     *                         cell is neither null, a string nor an array of strings
     */
    public static List<List<List<String>>> read(String source, String json) {
        return read(JsonCursor.parse(source, json));
    }

    /** As {@link #read(String, String)}, for a document already parsed. */
    static List<List<List<String>>> read(JsonCursor root) {
        return document(root).cells();
    }

    /**
     * As {@link #read(String, String)}, keeping which cells the file wrote as JSON arrays (MLX before
     * 0.30.6 cannot parse one, even {@code []} or {@code ["x"]}).
     *
     * @return the cells and the {@code [row, column]} of every array cell, row by row
     * @throws FormatException as {@link #read(String, String)}
     */
    static CheckedFile.Devices document(JsonCursor root) {
        if (!root.isArray()) {
            throw root.fail("a jaccl devices file is an array of rows, one per rank");
        }
        List<List<List<String>>> rows = new ArrayList<>();
        List<List<Integer>> arrays = new ArrayList<>();
        for (JsonCursor row : root.elements()) {
            if (!row.isArray()) {
                throw row.fail("each row of a devices file is an array of cells, one per rank");
            }
            List<List<String>> cells = new ArrayList<>();
            for (JsonCursor cell : row.elements()) {
                if (cell.isArray()) {
                    arrays.add(List.of(rows.size(), cells.size()));
                }
                cells.add(cell(cell));
            }
            rows.add(List.copyOf(cells));
        }
        return new CheckedFile.Devices(rows, arrays);
    }

    /**
     * One cell as jaccl reads it ({@code parse_devices_json}): null, a name, or an array of names.
     *
     * @return the names; empty for null
     * @throws FormatException when the cell is of another type, or an array holds a non-string
     */
    static List<String> cell(JsonCursor cell) {
        if (cell.isNull()) {
            return List.of();
        }
        if (cell.isString()) {
            return List.of(cell.string());
        }
        if (!cell.isArray()) {
            throw cell.fail("a cell is null, a device name or an array of device names");
        }
        List<String> names = new ArrayList<>();
        for (JsonCursor name : cell.elements()) {
            if (!name.isString()) {
                throw name.fail("a device name must be a string");
            }
            names.add(name.string());
        }
        return List.copyOf(names);
    }

    /**
     * Writes {@code cells[i][j][k]} one row per line. An empty cell is {@code null}; a cell with one
     * wire is a plain string, which every MLX with jaccl reads (MLX before multi-wire rings read only
     * strings); a cell with several rails is an array. Never writes {@code ""}.
     *
     * @param cells ranks × ranks × rails
     * @return the JSON text, ending with a newline
     * @throws IllegalArgumentException when a name is empty
     */
    public static String write(List<List<List<String>>> cells) {
        StringBuilder out = new StringBuilder("[\n");
        for (int i = 0; i < cells.size(); i++) {
            out.append("  [");
            List<List<String>> row = cells.get(i);
            for (int j = 0; j < row.size(); j++) {
                if (j > 0) {
                    out.append(", ");
                }
                out.append(cellJson(row.get(j)));
            }
            out.append(i + 1 < cells.size() ? "],\n" : "]\n");
        }
        return out.append("]\n").toString();
    }

    /**
     * @param rails the names of one cell, rail by rail
     * @return the cell as JSON text: {@code null}, {@code "name"} or {@code ["a","b"]}
     * @throws IllegalArgumentException when a name is empty
     */
    public static String cellJson(List<String> rails) {
        return cellTree(rails).toString();
    }

    /**
     * One cell as written to devices files and mlx.launch hostfiles: {@code null} when empty, a plain
     * string for one wire, an array for several.
     *
     * @param rails the names of one cell, rail by rail
     * @return the cell as a JSON tree
     * @throws IllegalArgumentException when a name is empty
     */
    public static JsonNode cellTree(List<String> rails) {
        if (rails.isEmpty()) {
            return NullNode.getInstance();
        }
        for (String name : rails) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("refusing to write an empty device name: jaccl would open a device named \"\"");
            }
        }
        if (rails.size() == 1) {
            return TextNode.valueOf(rails.get(0));
        }
        ArrayNode array = JsonText.array();
        rails.forEach(array::add);
        return array;
    }
}
