package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.provenance.Provenance;
import java.util.List;

/**
 * The two files MLX's TCP ring backend is started from, for a ring ({@link MlxRing}):
 * <ul>
 * <li>{@link #launch}: an mlx.launch hostfile (MLX {@code python/mlx/_distributed_utils/common.py},
 *     {@code Hostfile.from_file}): {@code {"backend": "ring", "envs": [provenance], "hosts": [{"ssh":
 *     node, "ips": [IPv4, ...]}, ...]}}, host i is rank i, its {@code ips} its own ends of the cables
 *     to host i-1, as {@code configure_ring} in {@code config.py} writes them. {@code launch_ring}
 *     ({@code launch.py}) turns it into the backend's hostfile, numbering ports from
 *     {@code --starting-port} (32323) one per address; {@code envs} names the records the ring was
 *     computed from, which MLX ignores.</li>
 * <li>{@link #hosts}: the file {@code MLX_HOSTFILE} names when the processes are started without
 *     mlx.launch ({@code ring.cpp}, {@code load_nodes}): a JSON array per rank of {@code "ip:port"},
 *     with the ports {@code launch_ring} would choose.</li>
 * </ul>
 */
public final class RingHostfiles {
    private RingHostfiles() {
    }

    /**
     * @param ring a ring ({@link MlxRing#requireRing()})
     * @return the mlx.launch hostfile JSON, ending with a newline
     */
    public static String launch(MlxRing ring) {
        ObjectNode root = JsonText.object();
        root.put("backend", "ring");
        root.putArray("envs").add(Provenance.TOPOLOGY_VARIABLE + "=" + ring.provenance().digest())
                .add(Provenance.RECORDS_VARIABLE + "=" + ring.provenance().recordList());
        ArrayNode hosts = root.putArray("hosts");
        for (int r = 0; r < ring.ranks().size(); r++) {
            ObjectNode host = hosts.addObject();
            host.put("ssh", ring.ranks().get(r));
            ArrayNode ips = host.putArray("ips");
            ring.addresses().get(r).forEach(a -> ips.add(a.substring(0, a.indexOf(':'))));
        }
        return JsonText.pretty(root);
    }

    /**
     * @param ring a ring ({@link MlxRing#requireRing()})
     * @return the MLX_HOSTFILE JSON, ending with a newline
     */
    public static String hosts(MlxRing ring) {
        ArrayNode root = JsonText.array();
        for (List<String> rank : ring.addresses()) {
            ArrayNode entry = root.addArray();
            rank.forEach(entry::add);
        }
        return JsonText.pretty(root);
    }
}
