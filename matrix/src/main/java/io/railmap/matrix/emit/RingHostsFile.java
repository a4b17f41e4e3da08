package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.MlxRing;
import java.util.List;
import java.util.Set;

/**
 * {@code ring-hosts}: the file {@code MLX_HOSTFILE} names when MLX's TCP ring backend is started
 * without mlx.launch (MLX {@code mlx/distributed/ring/ring.cpp}, {@code load_nodes}): a JSON array
 * per rank of {@code "ip:port"}, with the ports {@link RingLaunchHostfile}'s {@code launch_ring} would
 * choose, over a ring of cables ({@link MlxRing}; jaccl's rules and {@code --order} do not apply).
 */
public final class RingHostsFile extends RingFormat {
    private static final About ABOUT = new About("ring-hosts", "application/json",
            "the file MLX_HOSTFILE names for MLX's TCP ring backend (railmap env --for mlx-ring sets it)",
            Set.of(), false);

    RingHostsFile() {
        super(ABOUT);
    }

    @Override
    String text(MlxRing ring, MlxVersion version) {
        return render(ring);
    }

    /**
     * @param ring a ring ({@link MlxRing#requireRing()})
     * @return the MLX_HOSTFILE JSON, ending with a newline
     */
    public static String render(MlxRing ring) {
        ArrayNode root = JsonText.array();
        for (List<String> rank : ring.addresses()) {
            ArrayNode entry = root.addArray();
            rank.forEach(entry::add);
        }
        return JsonText.pretty(root);
    }
}
