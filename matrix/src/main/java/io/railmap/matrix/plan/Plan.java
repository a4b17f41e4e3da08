package io.railmap.matrix.plan;

import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.JacclMode;
import io.railmap.matrix.jaccl.JacclRules;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.provenance.Provenance;
import io.railmap.matrix.rail.DeviceMatrix;
import java.util.List;
import java.util.Optional;

/**
 * The answer to one request: the rank order, the rail-aligned matrix shaped for one MLX release, the
 * group jaccl will build from it, and what a person should know.
 *
 * @param matrix     the matrix, whose {@code ranks()} is the rank order
 * @param findings   one-sided observations and shared segments on the ranked nodes (warnings),
 *                   cables left out (info), ports that cannot be rails, and the check of the matrix
 * @param mlxVersion the MLX release the matrix is shaped for
 * @param mode       the group jaccl builds and runs from the matrix (with {@code MLX_JACCL_RING} set
 *                   exactly when it is {@link JacclMode#RING}); empty when jaccl would refuse, throw or
 *                   misbehave, which is then an error finding
 * @param provenance the records of the ranked nodes the plan was computed from, and their digest
 * @param railTable  the rails of the switched fabric of every node of the topology (not only the
 *                   ranks: rail ids are the same whoever asks) and its findings
 */
public record Plan(DeviceMatrix matrix, List<Finding> findings, MlxVersion mlxVersion, Optional<JacclMode> mode,
                   Provenance provenance, RailTable railTable) {
    /** Copies the findings. */
    public Plan {
        findings = List.copyOf(findings);
    }

    /** @return node names in rank order */
    public List<String> ranks() {
        return matrix.ranks();
    }

    /** @return true when some pair has more than one rail */
    public boolean ring() {
        return matrix.ring();
    }

    /**
     * @return true when jaccl runs the ring: {@code MLX_JACCL_RING} is set (mlx.launch backend
     *         {@code jaccl-ring})
     */
    public boolean runRing() {
        return mode.equals(Optional.of(JacclMode.RING));
    }

    /** @return jaccl's own {@code is_valid_mesh} on the matrix, for {@link #mlxVersion()} */
    public boolean validMesh() {
        return JacclRules.isValidMesh(matrix.devices(), mlxVersion);
    }

    /** @return jaccl's own {@code is_valid_ring} on the matrix, for {@link #mlxVersion()} */
    public boolean validRing() {
        return JacclRules.isValidRing(matrix.devices(), mlxVersion);
    }

    /**
     * @return the oldest MLX release that runs this matrix as {@link #mode()}; empty when there is no
     *         mode
     */
    public Optional<MlxVersion> minMlxVersion() {
        return mode.flatMap(m -> JacclRules.oldestRunning(matrix.devices(), m));
    }

    /** @return true when some finding is an error */
    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError);
    }
}
