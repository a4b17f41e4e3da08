package io.railmap.matrix.emit;

import io.railmap.matrix.fabric.Rail;
import io.railmap.matrix.fabric.RailNic;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.rail.RailAligner;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rail table for people ({@code railmap rails}, the default of {@link Formats#RAIL_TABLES}): one line per
 * rail, its id, what it is, its name, and per node the NIC on it and its rate; then NICs no other node's NIC
 * shares a switch with. The findings are not in the text: the caller prints them after it.
 *
 * <pre>
 * RAIL  KIND    NAME   HCA     NICS
 * 0     switch  leaf0  mlx5_0  g1 mlx5_0 400 Gb/s, g2 mlx5_0 400 Gb/s, ...
 * </pre>
 * A NIC placed by the probe only is marked {@code (probe)}. Switch names come from the wire, so they
 * are shown escaped ({@link Names#escape}).
 */
public final class RailTableText {
    /** The registered format ({@link Formats#RAIL_TABLES}). */
    public static final RailTableFormat FORMAT = new RailTableFormat(new Format.About("text", "text/plain",
            "The rail table for people, one line per rail", Set.of(), false), RailTableText::render);

    private RailTableText() {
    }

    /** @return the table, one line per row, ending with a newline; a sentence when there are no rails */
    public static String render(RailTable table) {
        StringBuilder out = new StringBuilder();
        if (table.rails().isEmpty()) {
            out.append("no switched rails: no switch or segment is reached by compute NICs of two nodes"
                    + " (direct cables are the rails of railmap matrix)\n");
        } else {
            int idWidth = Math.max(4, String.valueOf(table.rails().size() - 1).length());
            int kindWidth = 7;
            int nameWidth = Math.max(4, table.rails().stream().mapToInt(r -> Names.escape(r.name()).length()).max().orElse(0));
            int hcaWidth = Math.max(3, table.rails().stream().mapToInt(r -> r.hca().length()).max().orElse(0));
            String row = "%-" + idWidth + "s  %-" + kindWidth + "s %-" + nameWidth + "s  %-" + hcaWidth + "s  %s";
            out.append(String.format(row, "RAIL", "KIND", "NAME", "HCA", "NICS").stripTrailing()).append('\n');
            for (Rail rail : table.rails()) {
                out.append(String.format(row, rail.id(), rail.kind().wireName(), Names.escape(rail.name()), rail.hca(),
                        rail.nics().stream().map(RailTableText::nic).collect(Collectors.joining(", "))).stripTrailing()).append('\n');
            }
        }
        table.strays().forEach((n, reaches) -> out.append("stray: ").append(nic(n)).append(" reaches ").append(Names.escape(reaches))
                .append(", which no other node reaches\n"));
        return out.toString();
    }

    private static String nic(RailNic n) {
        return n.node() + " " + n.hca() + n.rateGbps().map(r -> " " + RailAligner.gbps(r)).orElse("")
                + (n.placedBy().equals("probe") ? " (probe)" : "");
    }
}
