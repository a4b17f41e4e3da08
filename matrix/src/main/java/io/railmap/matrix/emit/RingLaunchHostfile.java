package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.plan.MlxRing;
import io.railmap.matrix.provenance.Provenance;
import java.util.Set;

/**
 * {@code ring-launch}: an mlx.launch hostfile for MLX's TCP ring backend, over a ring of cables
 * ({@link MlxRing}; jaccl's rules and {@code --order} do not apply). Format: MLX
 * {@code python/mlx/_distributed_utils/common.py}, {@code Hostfile.from_file}:
 * {@code {"backend": "ring", "envs": [provenance], "hosts": [{"ssh": node, "ips": [IPv4, ...]}, ...]}};
 * host i is rank i, its {@code ips} its own ends of the cables to host i-1, as {@code configure_ring}
 * in {@code config.py} writes them. {@code launch_ring} ({@code launch.py}) turns it into the
 * backend's hostfile, numbering ports from {@code --starting-port} (32323) one per address;
 * {@code envs} names the records the ring was computed from, which MLX ignores.
 */
public final class RingLaunchHostfile extends RingFormat {
    private static final About ABOUT = new About("ring-launch", "application/json",
            "an mlx.launch hostfile for MLX's TCP ring backend: each host's IPv4 cable ends to the previous host, "
                + "in a ring of cables",
            Set.of(), false);

    RingLaunchHostfile() {
        super(ABOUT);
    }

    @Override
    String text(MlxRing ring) {
        return render(ring);
    }

    /**
     * @param ring a ring ({@link MlxRing#requireRing()})
     * @return the mlx.launch hostfile JSON, ending with a newline
     */
    public static String render(MlxRing ring) {
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
}
