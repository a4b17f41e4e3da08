package io.railmap.matrix;

import java.util.ArrayList;
import java.util.List;

/** Devices matrices for tests. */
public final class Cells {
    private Cells() {
    }

    /** @return a mutable deep copy of {@code devices[i][j][k]}, for a test to change one cell or rail */
    public static List<List<List<String>>> copy(List<List<List<String>>> cells) {
        List<List<List<String>>> out = new ArrayList<>();
        for (List<List<String>> row : cells) {
            List<List<String>> r = new ArrayList<>();
            for (List<String> cell : row) {
                r.add(new ArrayList<>(cell));
            }
            out.add(r);
        }
        return out;
    }
}
