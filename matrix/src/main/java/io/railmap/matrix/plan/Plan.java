package io.railmap.matrix.plan;

import io.railmap.matrix.check.Finding;
import io.railmap.matrix.rail.DeviceMatrix;
import java.util.List;

/**
 * The answer to one request: the rank order, the rail-aligned matrix and what a person should know.
 *
 * @param matrix   the matrix, whose {@code ranks()} is the rank order
 * @param findings one-sided observations and shared segments on the ranked nodes (warnings),
 *                 cables left out (info), and the check of the matrix itself
 */
public record Plan(DeviceMatrix matrix, List<Finding> findings) {
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
     * @return true when jaccl should run the ring ({@code MLX_JACCL_RING} set, backend
     *         {@code jaccl-ring}): the ring flag is set and the rank order is a valid ring
     */
    public boolean runRing() {
        return matrix.runRing();
    }

    /** @return true when some finding is an error */
    public boolean hasErrors() {
        return findings.stream().anyMatch(Finding::isError);
    }
}
