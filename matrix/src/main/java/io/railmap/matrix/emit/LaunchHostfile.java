package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.address.Addresses;
import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.plan.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An mlx.launch hostfile (MLX {@code python/mlx/_distributed_utils/common.py}, {@code Hostfile}):
 * {@code {"backend": "jaccl" | "jaccl-ring", "envs": [], "hosts": [{"ssh": node, "ips": [IPv4],
 * "rdma": row i of the devices matrix}, ...]}}; host i is rank i. mlx.launch takes
 * {@code hosts[0].ips[0]} as the coordinator, and backend {@code jaccl-ring} sets
 * {@code MLX_JACCL_RING}, so it is chosen exactly when {@link Plan#runRing()}. {@code envs} names the
 * records the plan was computed from ({@code RAILMAP_TOPOLOGY}, {@code RAILMAP_RECORDS}): mlx.launch
 * exports them to every rank, jaccl ignores them, and {@code railmap check} reads them to tell a stale
 * hostfile. Cells are written as
 * in the devices file: null, a name, or an array for several wires.
 *
 * <p>The shape follows the plan's MLX release ({@link Plan#mlxVersion()}): from 0.30.6 the object
 * above, always with {@code backend} and {@code envs} ({@code Hostfile.from_file} of 0.30.6 to 0.32.0
 * reads both with {@code data[...]} and fails without them); before 0.30.6 a bare array of the hosts,
 * the only form {@code parse_hostfile} reads ({@code common.py}, v0.30.5), which can name neither a
 * backend nor envs: a {@code setting-caveat} warning says to run {@code mlx.launch --backend jaccl}.
 */
public final class LaunchHostfile implements Format {
    private static final About ABOUT = new About("launch", "application/json",
            "an mlx.launch hostfile for jaccl (ips: the nodes' management addresses unless --ip gives one)",
            FormatOption.jacclAnd(FormatOption.IP), false);

    LaunchHostfile() {
    }

    @Override
    public About about() {
        return ABOUT;
    }

    /** @throws IllegalArgumentException also when an address is given for a node that is not a rank */
    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        Map<String, String> given = request.options().ips();
        for (String node : given.keySet()) {
            if (!plan.ranks().contains(node)) {
                throw new IllegalArgumentException("an address is given for " + Names.escape(node) + " (--ip, or ip= in a query), which is not"
                        + " among the ranks (" + Names.escape(String.join(", ", plan.ranks()), 200) + "): give addresses of ranks only");
            }
        }
        List<Finding> findings = new ArrayList<>(plan.findings());
        MlxLaunchHostfile.caveat(plan.mlxVersion(), "run mlx.launch --backend jaccl --hostfile FILE (without it mlx.launch runs its"
                + " TCP ring backend); the records the file was made from are not in it, so railmap check cannot tell when it is stale")
                .ifPresent(findings::add);
        return new Output(render(plan, Addresses.launchIps(request.topology(), plan.ranks(), given)), findings);
    }

    /**
     * @param plan the plan
     * @param ips  IPv4 address per node ({@link Addresses#launchIps}); rank 0's is required, others are
     *             written when given
     * @return the hostfile JSON, ending with a newline
     * @throws IllegalArgumentException when rank 0 has no address, or an address is not IPv4
     */
    public static String render(Plan plan, Map<String, String> ips) {
        String first = plan.ranks().get(0);
        if (!ips.containsKey(first)) {
            throw new IllegalArgumentException("an mlx.launch hostfile needs the IPv4 address of rank 0 (" + first
                    + "), which mlx.launch uses as the coordinator: pass --ip " + first + "=ADDRESS");
        }
        ips.forEach((node, ip) -> Addresses.ipv4("address of " + node, ip));
        ArrayNode hosts = JsonText.array();
        List<List<List<String>>> devices = plan.matrix().devices();
        for (int i = 0; i < plan.ranks().size(); i++) {
            String node = plan.ranks().get(i);
            ObjectNode host = hosts.addObject();
            host.put("ssh", node);
            ArrayNode hostIps = host.putArray("ips");
            if (ips.containsKey(node)) {
                hostIps.add(ips.get(node));
            }
            ArrayNode row = host.putArray("rdma");
            devices.get(i).forEach(cell -> row.add(DevicesCodec.cellTree(cell)));
        }
        return MlxLaunchHostfile.text(plan.mlxVersion(), plan.runRing() ? "jaccl-ring" : "jaccl", plan.provenance(), hosts);
    }
}
