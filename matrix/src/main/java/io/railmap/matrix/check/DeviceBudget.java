package io.railmap.matrix.check;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.RdmaLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Whether each RDMA device of each rank holds what jaccl opens on it: its queue pairs (one per
 * connection, {@link JacclRules#connections}) against the device's own {@code max_qp}, and its memory
 * regions ({@link JacclRules#memoryRegionsPerConnection}, MLX 0.32.1 and newer) against its own
 * {@code max_mr}, each as the port's record says ({@link Port#rdmaLimits()}, from {@code ibv_devinfo -v}).
 *
 * <p>Queue pairs a device takes: a Mac's Thunderbolt device ({@link Port#appleThunderbolt()}; a Linux
 * XDomain's {@code usb4_rdma} is another device here) takes one fewer than its {@code max_qp} (Macs
 * report 11, mlx issue 3205, and the eleventh {@code ibv_create_qp} fails with EBUSY, mlx issue 3162 and
 * pull request 4209); another device its {@code max_qp}. When the record does not say, a Thunderbolt
 * device takes {@value JacclRules#THUNDERBOLT_MAX_QUEUE_PAIRS} and another is not judged; memory regions
 * are judged only where {@code max_mr} is known. Each finding says the number it used and where it came
 * from. Pure; O(ranks + names).
 */
final class DeviceBudget {
    private DeviceBudget() {
    }

    /**
     * @param ranks   node names in rank order
     * @param cells   a square matrix of at least 2 ranks
     * @param mode    the group jaccl builds
     * @param version the MLX release
     * @param port    the port a name of rank i's cells stands for, if any
     * @return {@code too-many-queue-pairs} and {@code too-many-memory-regions} errors, rank by rank, device by device
     */
    static List<Finding> of(List<String> ranks, List<List<List<String>>> cells, JacclMode mode, MlxVersion version,
                            BiFunction<Integer, String, Optional<Port>> port) {
        List<Finding> out = new ArrayList<>();
        for (int r = 0; r < ranks.size(); r++) {
            for (Map.Entry<String, Integer> e : JacclRules.connections(cells, r, mode).entrySet()) {
                Optional<Port> p = port.apply(r, e.getKey());
                if (p.isPresent()) {
                    judge(ranks, r, e.getKey(), e.getValue(), p.get(), mode, version, out);
                }
            }
        }
        return out;
    }

    private static void judge(List<String> ranks, int r, String name, int connections, Port port, JacclMode mode, MlxVersion version,
                              List<Finding> out) {
        String rank = ModeFindings.rank(ranks, r);
        String device = Checker.quoted(List.of(name));
        boolean thunderbolt = port.appleThunderbolt();
        Optional<Integer> maxQp = port.rdmaLimits().flatMap(RdmaLimits::maxQp);
        Optional<Integer> takes = maxQp.map(q -> thunderbolt ? Math.max(0, q - 1) : q)
                .or(() -> thunderbolt ? Optional.of(JacclRules.THUNDERBOLT_MAX_QUEUE_PAIRS) : Optional.empty());
        if (takes.isPresent() && connections > takes.get()) {
            String source = maxQp.isPresent()
                    ? "its device reports max_qp " + maxQp.get() + " (ibv_devinfo -v, in " + port.node() + "'s record)"
                    + (thunderbolt ? ", and a Thunderbolt device creates one fewer (the last fails with EBUSY; mlx issue 3162)" : "")
                    : "the Thunderbolt limit measured in mlx issue 3162, since " + port.node() + "'s record does not say this device's"
                    + " max_qp";
            out.add(new Finding(Code.TOO_MANY_QUEUE_PAIRS, Severity.ERROR, List.of(r), Optional.empty(), List.of(port.ref()), rank
                    + " uses " + device + " for " + connections + " queue pairs (" + mode.externalName() + "), but it takes at most "
                    + takes.get() + ": " + source + "; the next ibv_create_qp fails; name each device for fewer peers or wires"));
        }
        Optional<Integer> maxMr = port.rdmaLimits().flatMap(RdmaLimits::maxMr);
        int regions = connections * JacclRules.memoryRegionsPerConnection(mode);
        if (maxMr.isPresent() && version.atLeast(MlxVersion.NEWEST) && regions > maxMr.get()) {
            out.add(new Finding(Code.TOO_MANY_MEMORY_REGIONS, Severity.ERROR, List.of(r), Optional.empty(), List.of(port.ref()), rank
                    + " registers " + regions + " memory regions on " + device + " (" + connections + " connections of the "
                    + mode.externalName() + ", " + JacclRules.memoryRegionsPerConnection(mode) + " each), but its device reports max_mr "
                    + maxMr.get() + " (ibv_devinfo -v, in " + port.node() + "'s record): ibv_reg_mr fails at init; name each device"
                    + " for fewer peers or wires"));
        }
    }
}
