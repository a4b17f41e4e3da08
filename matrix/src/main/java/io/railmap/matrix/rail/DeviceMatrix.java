package io.railmap.matrix.rail;

import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntBinaryOperator;

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
     * @return {@code devices[i][j][k]} (ranks × ranks × rails): the RDMA device of rank i's end of
     *         rail k towards rank j
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

    /**
     * A copy that keeps, for every pair, only its first {@code wires.applyAsInt(i, j)} rails (both cells
     * of a pair shrink alike, so the invariant holds); the rails dropped join {@link #leftOut()} with
     * {@code reason}.
     *
     * @param wires  how many rails pair (i, j) keeps, for i &lt; j; more than it has keeps them all
     * @param reason why the others are left out, a sentence fragment
     * @return the trimmed matrix
     */
    public DeviceMatrix keep(IntBinaryOperator wires, String reason) {
        List<List<List<Cable>>> kept = new ArrayList<>();
        List<List<List<String>>> names = new ArrayList<>();
        List<LeftOut> out = new ArrayList<>(leftOut);
        for (int i = 0; i < size(); i++) {
            List<List<Cable>> railRow = new ArrayList<>();
            List<List<String>> nameRow = new ArrayList<>();
            for (int j = 0; j < size(); j++) {
                int count = Math.min(wires(i, j), Math.max(0, wires.applyAsInt(Math.min(i, j), Math.max(i, j))));
                railRow.add(rails(i, j).subList(0, count));
                nameRow.add(devices.get(i).get(j).subList(0, count));
                if (i < j) {
                    rails(i, j).subList(count, wires(i, j)).forEach(c -> out.add(new LeftOut(c, reason, false)));
                }
            }
            kept.add(List.copyOf(railRow));
            names.add(List.copyOf(nameRow));
        }
        out.sort(Comparator.comparing(LeftOut::cable));
        return new DeviceMatrix(ranks, List.copyOf(kept), List.copyOf(names), out);
    }

    /** @return confirmed cables between ranks that are not rails, with the reason, in cable order */
    public List<LeftOut> leftOut() {
        return leftOut;
    }
}
