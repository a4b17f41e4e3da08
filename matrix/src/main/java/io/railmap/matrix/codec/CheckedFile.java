package io.railmap.matrix.codec;

import java.util.List;

/**
 * What {@code railmap check} reads: a jaccl devices file or an mlx.launch hostfile, told apart by
 * the shape of the document. A devices file is an array of arrays (or an empty array); a hostfile
 * is an object with {@code hosts}, or an array of objects. The first element decides an array;
 * the reader of that kind then reports any element that does not fit.
 */
public sealed interface CheckedFile permits CheckedFile.Devices, Hostfile {

    /**
     * A jaccl devices file, as {@link DevicesCodec#document} gives it.
     *
     * @param cells      {@code cells[i][j][k]}: ranks × ranks × wires; rows may be ragged
     * @param arrayCells the {@code [i, j]} of each cell the file writes as a JSON array (including
     *                   {@code []} and one-name arrays), row by row
     */
    record Devices(List<List<List<String>>> cells, List<List<Integer>> arrayCells) implements CheckedFile {
        /** Copies the lists. */
        public Devices {
            cells = List.copyOf(cells);
            arrayCells = List.copyOf(arrayCells);
        }
    }

    /**
     * @param source what the text came from (a file name, {@code "request body"}), for error messages
     * @param json   the document
     * @return a {@link Devices} or a {@link Hostfile}
     * @throws FormatException when the text is not JSON, is neither kind of document, or is a
     *                         malformed document of its kind ({@link DevicesCodec#document},
     *                         {@link HostfileCodec#read})
     */
    static CheckedFile read(String source, String json) {
        JsonCursor root = JsonCursor.parse(source, json);
        if (root.isArray()) {
            List<JsonCursor> elements = root.elements();
            if (elements.isEmpty() || elements.get(0).isArray()) {
                return DevicesCodec.document(root);
            }
            if (elements.get(0).isObject()) {
                return HostfileCodec.read(root);
            }
            throw elements.get(0).fail("expected a row of a jaccl devices file (an array of cells) or a host of an mlx.launch "
                    + "hostfile (an object with \"ssh\"); found " + elements.get(0).describe());
        }
        if (root.has("hosts")) {
            return HostfileCodec.read(root);
        }
        throw root.fail((root.isObject() ? "an object without \"hosts\" is" : root.describe() + " is")
                + " neither a jaccl devices file (an array of rows, one per rank) nor an mlx.launch hostfile "
                + "(an object with \"hosts\", or an array of hosts): give the file MLX_IBV_DEVICES names, or the hostfile mlx.launch reads");
    }
}
