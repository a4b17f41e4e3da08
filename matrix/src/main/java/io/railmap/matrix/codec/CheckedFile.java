package io.railmap.matrix.codec;

import java.util.List;

/**
 * What {@code railmap check} reads: a jaccl devices file, an mlx.launch hostfile or the file
 * {@code MLX_HOSTFILE} names for MLX's ring backend, told apart by the shape of the document. A devices
 * file is an array of arrays (or an empty array); a ring backend's file is an array of arrays whose first
 * element is a {@code "HOST:PORT"} string (a jaccl device name never holds {@code ':'}, and a devices file's
 * first cell is the diagonal); a hostfile is an object with {@code hosts}, or an array of objects. The first
 * element decides an array; the reader of that kind then reports any element that does not fit.
 */
public sealed interface CheckedFile permits CheckedFile.Devices, CheckedFile.RingHosts, Hostfile {

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
     * The file {@code MLX_HOSTFILE} names for MLX's TCP ring backend, as {@link RingHostsCodec} reads it.
     *
     * @param addresses per rank, its {@code "HOST:PORT"} strings in order
     */
    record RingHosts(List<List<String>> addresses) implements CheckedFile {
        /** Copies the lists. */
        public RingHosts {
            addresses = addresses.stream().map(List::copyOf).toList();
        }

        /** @return per rank, the host part of each address (before the first {@code ':'}) */
        public List<List<String>> hosts() {
            return addresses.stream().map(r -> r.stream().map(a -> a.substring(0, a.indexOf(':'))).toList()).toList();
        }
    }

    /**
     * @param source what the text came from (a file name, {@code "request body"}), for error messages
     * @param json   the document
     * @return a {@link Devices}, a {@link RingHosts} or a {@link Hostfile}
     * @throws FormatException when the text is not JSON, is neither kind of document, or is a
     *                         malformed document of its kind ({@link DevicesCodec#document},
     *                         {@link RingHostsCodec}, {@link HostfileCodec#read})
     */
    static CheckedFile read(String source, String json) {
        JsonCursor root = JsonCursor.parse(source, json);
        if (root.isArray()) {
            List<JsonCursor> elements = root.elements();
            if (RingHostsCodec.looksLikeOne(elements)) {
                return RingHostsCodec.read(root);
            }
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
