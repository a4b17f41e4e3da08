package io.railmap.matrix.rail;

import io.railmap.matrix.topology.Cable;
import java.util.List;

/**
 * The rail-aligned device matrix for an ordered list of ranks. {@code rails(i, j)} and
 * {@code rails(j, i)} are the same ordered list of cables, so {@code device(i, j, k)} and
 * {@code device(j, i, k)} are the two ends of one cable for every rail k. The diagonal is empty.
 * Build one with {@link RailAligner#align}.
 */
public final class DeviceMatrix {
    private final List<String> ranks;
    private final List<List<List<Cable>>> rails;
    private final List<List<List<String>>> devices;
    private final List<LeftOut> leftOut;

    DeviceMatrix(List<String> ranks, List<List<List<Cable>>> rails, List<List<List<String>>> devices,
                 List<LeftOut> leftOut) {
        this.ranks = List.copyOf(ranks);
        this.rails = rails;
        this.devices = devices;
        this.leftOut = List.copyOf(leftOut);
    }

    /** @return node names by rank: {@code ranks().get(i)} is rank i */
    public List<String> ranks() {
        return ranks;
    }

    /** @return the number of ranks N */
    public int size() {
        return ranks.size();
    }

    /**
     * @return the cables between ranks i and j in rail order (rail k = element k); the same list for
     *         (i, j) and (j, i); empty on the diagonal
     * @throws IndexOutOfBoundsException when a rank is not in [0, N)
     */
    public List<Cable> rails(int i, int j) {
        return rails.get(i).get(j);
    }

    /** @return the number of rails between ranks i and j */
    public int wires(int i, int j) {
        return rails(i, j).size();
    }

    /**
     * @return {@code devices[i][j][k]} (ranks × ranks × rails): the device name of rank i's end of
     *         rail k towards rank j (its RDMA device, or its netdev when it has none)
     */
    public List<List<List<String>>> devices() {
        return devices;
    }

    /** @return {@code devices().get(i).get(j).get(k)} */
    public String device(int i, int j, int k) {
        return devices.get(i).get(j).get(k);
    }

    /** @return true when some pair of ranks has more than one rail (jaccl's mesh would use only wire 0) */
    public boolean ring() {
        for (int i = 0; i < size(); i++) {
            for (int j = i + 1; j < size(); j++) {
                if (wires(i, j) > 1) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return true when jaccl accepts this matrix as a ring, in this rank order ({@link JacclRules#isValidRing}) */
    public boolean validRing() {
        return JacclRules.isValidRing(devices);
    }

    /**
     * @return true when jaccl should run the ring ({@code MLX_JACCL_RING} set, mlx.launch backend
     *         {@code jaccl-ring}): some pair has several rails and the rank order is a valid ring
     */
    public boolean runRing() {
        return ring() && validRing();
    }

    /** @return true when jaccl accepts this matrix as a mesh ({@link JacclRules#isValidMesh}) */
    public boolean validMesh() {
        return JacclRules.isValidMesh(devices);
    }

    /** @return confirmed cables between ranks that are not rails, with the reason, in cable order */
    public List<LeftOut> leftOut() {
        return leftOut;
    }
}
