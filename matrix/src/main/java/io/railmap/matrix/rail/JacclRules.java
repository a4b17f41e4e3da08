package io.railmap.matrix.rail;

import java.util.List;

/**
 * The shape rules MLX jaccl applies to a devices matrix {@code cells[i][j][k]} (ranks × ranks ×
 * wires), from MLX {@code mlx/distributed/jaccl/lib/jaccl/jaccl.cpp} ({@code is_valid_mesh},
 * {@code is_valid_ring}) plus the limits of its mesh and ring groups. All methods expect a square
 * matrix.
 */
public final class JacclRules {
    /** jaccl's mesh connects at most this many ranks. */
    public static final int MESH_MAX_RANKS = 8;
    /** jaccl's ring uses at most this many wires per direction. */
    public static final int RING_MAX_WIRES = 4;

    private JacclRules() {
    }

    /**
     * A valid mesh: at least 2 and at most {@value #MESH_MAX_RANKS} ranks, every off-diagonal cell
     * non-empty, the diagonal empty. The mesh uses only wire 0 of each cell.
     *
     * @param cells a square matrix
     * @return true when jaccl can run these cells as a mesh
     */
    public static boolean isValidMesh(List<List<List<String>>> cells) {
        int n = cells.size();
        if (n < 2 || n > MESH_MAX_RANKS) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if ((i == j) != cells.get(i).get(j).isEmpty()) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * A valid ring: at least 2 ranks, and both neighbour cells of every rank r
     * ({@code cells[r][r-1]} and {@code cells[r][r+1]}, mod N) hold as many wires as
     * {@code cells[0][1]}, which is between 1 and {@value #RING_MAX_WIRES}. The rank order is then the
     * ring order.
     *
     * @param cells a square matrix
     * @return true when jaccl can run these cells as a ring
     */
    public static boolean isValidRing(List<List<List<String>>> cells) {
        int n = cells.size();
        if (n < 2) {
            return false;
        }
        int wires = cells.get(0).get(1).size();
        if (wires < 1 || wires > RING_MAX_WIRES) {
            return false;
        }
        for (int r = 0; r < n; r++) {
            if (cells.get(r).get(left(r, n)).size() != wires || cells.get(r).get(right(r, n)).size() != wires) {
                return false;
            }
        }
        return true;
    }

    /** @return rank r's left neighbour in a ring of n ranks, {@code (r - 1) mod n} */
    public static int left(int r, int n) {
        return (r + n - 1) % n;
    }

    /** @return rank r's right neighbour in a ring of n ranks, {@code (r + 1) mod n} */
    public static int right(int r, int n) {
        return (r + 1) % n;
    }
}
