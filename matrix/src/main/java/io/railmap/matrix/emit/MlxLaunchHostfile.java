package io.railmap.matrix.emit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.finding.Severity;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.provenance.Provenance;
import java.util.List;
import java.util.Optional;

/**
 * What {@link LaunchHostfile} and {@link RingLaunchHostfile} share: the form the MLX release's
 * mlx.launch reads (MLX {@code python/mlx/_distributed_utils/common.py},
 * {@link MlxVersion#launchReadsHostfileObject()}). From 0.30.6 {@code Hostfile.from_file}'s object
 * {@code {"backend": ..., "envs": [provenance], "hosts": [...]}}, always with {@code backend} and
 * {@code envs}; before 0.30.6 {@code parse_hostfile}'s bare array of the hosts, which names no backend,
 * and a {@code setting-caveat} warning says so.
 */
final class MlxLaunchHostfile {
    private MlxLaunchHostfile() {
    }

    /**
     * @param version    the MLX release whose mlx.launch reads the file
     * @param backend    the backend the object names ({@code jaccl}, {@code jaccl-ring}, {@code ring})
     * @param provenance the records the hosts were computed from, written to {@code envs}
     * @param hosts      the hosts, host i being rank i
     * @return the hostfile JSON, ending with a newline: the object from MLX 0.30.6, the bare array of
     *         hosts before
     */
    static String text(MlxVersion version, String backend, Provenance provenance, ArrayNode hosts) {
        if (!version.launchReadsHostfileObject()) {
            return JsonText.pretty(hosts);
        }
        ObjectNode root = JsonText.object();
        root.put("backend", backend);
        root.putArray("envs").add(Provenance.TOPOLOGY_VARIABLE + "=" + provenance.digest())
                .add(Provenance.RECORDS_VARIABLE + "=" + provenance.recordList());
        root.set("hosts", hosts);
        return JsonText.pretty(root);
    }

    /**
     * @param version the MLX release whose mlx.launch reads the file
     * @param what    what the user is to do about the missing backend, and why (follows
     *                {@code which names no backend: })
     * @return the {@code setting-caveat} warning before MLX 0.30.6, whose mlx.launch reads only a bare
     *         array; empty from 0.30.6
     */
    static Optional<Finding> caveat(MlxVersion version, String what) {
        if (version.launchReadsHostfileObject()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Code.SETTING_CAVEAT, Severity.WARNING, List.of(), Optional.empty(), "MLX " + version
                + "'s mlx.launch reads a hostfile only as a bare array of hosts, which names no backend: " + what));
    }
}
