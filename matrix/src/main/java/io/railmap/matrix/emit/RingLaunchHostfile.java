package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.MlxRing;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code ring-launch}: an mlx.launch hostfile for MLX's TCP ring backend, over a ring of cables
 * ({@link MlxRing}; jaccl's rules and {@code --order} do not apply). Host i is rank i, its
 * {@code ips} its own ends of the cables to host i-1, as {@code configure_ring} in {@code config.py}
 * writes them. {@code launch_ring} ({@code launch.py}) reads only each host's {@code ssh} and
 * {@code ips} and turns them into the backend's hostfile, numbering ports from
 * {@code --starting-port} (32323) one per address; it is the same from MLX 0.30.1 to 0.32.1.
 *
 * <p>The form is the one the {@code --mlx-version} release's mlx.launch reads (MLX
 * {@code python/mlx/_distributed_utils/common.py}, {@link MlxVersion#launchReadsHostfileObject()}):
 * from 0.30.6 {@code Hostfile.from_file}'s object
 * {@code {"backend": "ring", "envs": [provenance], "hosts": [{"ssh": node, "ips": [IPv4, ...]}, ...]}},
 * always with {@code backend} and {@code envs}, which 0.30.6 to 0.32.0 require; {@code envs} names the
 * records the ring was computed from, which MLX ignores. Before 0.30.6 {@code parse_hostfile} reads
 * only a bare array of those hosts, as that release's {@code configure_ring} writes it; it names no
 * backend, and {@code launch.py}'s {@code --backend} defaults to {@code ring} unless CUDA is
 * available ({@code nccl} then), so a {@code setting-caveat} warning says to pass {@code --backend ring}
 * there (railmap cannot tell where mlx.launch will run; the warning does not change the exit code).
 */
public final class RingLaunchHostfile extends RingFormat {
    private static final About ABOUT = new About("ring-launch", "application/json",
            "an mlx.launch hostfile for MLX's TCP ring backend: each host's IPv4 cable ends to the previous host, "
                + "in a ring of cables",
            Set.of(FormatOption.MLX_VERSION), false);

    RingLaunchHostfile() {
        super(ABOUT);
    }

    @Override
    String text(MlxRing ring, MlxVersion version) {
        return render(ring, version);
    }

    @Override
    List<Finding> findings(MlxRing ring, MlxVersion version) {
        List<Finding> findings = new ArrayList<>(ring.findings());
        MlxLaunchHostfile.caveat(version, "mlx.launch runs its ring backend by default, but nccl where CUDA is available, so on"
                + " such a launcher pass --backend ring").ifPresent(findings::add);
        return findings;
    }

    /**
     * @param ring    a ring ({@link MlxRing#requireRing()})
     * @param version the MLX release whose mlx.launch reads the file
     * @return the mlx.launch hostfile JSON, ending with a newline: an object from MLX 0.30.6, a bare
     *         array of hosts before
     */
    public static String render(MlxRing ring, MlxVersion version) {
        ArrayNode hosts = JsonText.array();
        for (int r = 0; r < ring.ranks().size(); r++) {
            ObjectNode host = hosts.addObject();
            host.put("ssh", ring.ranks().get(r));
            ArrayNode ips = host.putArray("ips");
            ring.addresses().get(r).forEach(a -> ips.add(a.substring(0, a.indexOf(':'))));
        }
        return MlxLaunchHostfile.text(version, "ring", ring.provenance(), hosts);
    }
}
