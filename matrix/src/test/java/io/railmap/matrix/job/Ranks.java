package io.railmap.matrix.job;

import io.railmap.matrix.model.LocalRank;
import io.railmap.matrix.model.RingEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Local ranks for tests, as a daemon would publish them (also the daemon's and the CLI's tests, through the test jar). */
public final class Ranks {
    private Ranks() {
    }

    /** A row from a compact notation: cells joined by '|', a cell "-" (null) or names joined by '+'. */
    public static List<List<String>> row(String row) {
        List<List<String>> cells = new ArrayList<>();
        for (String cell : row.split("\\|", -1)) {
            cells.add(cell.equals("-") ? List.of() : Arrays.asList(cell.split("\\+", -1)));
        }
        return cells;
    }

    /** A jaccl rank: MLX_RANK, MLX_JACCL_COORDINATOR and MLX_IBV_DEVICES set, its row read. */
    public static LocalRank jaccl(long pid, int rank, String coordinator, List<List<String>> row) {
        return new LocalRank(pid, 1_700_000_000_000L + pid, Map.of("MLX_RANK", String.valueOf(rank), "MLX_JACCL_COORDINATOR", coordinator,
                "MLX_IBV_DEVICES", "/tmp/hosts_" + rank + ".json"), Optional.of(row), Optional.empty(), Optional.empty());
    }

    /** A jaccl rank as {@link #jaccl}, with MLX_JACCL_RING=1 (jaccl runs the ring whenever the variable is set). */
    static LocalRank jacclRing(long pid, int rank, String coordinator, List<List<String>> row) {
        return new LocalRank(pid, 1_700_000_000_000L + pid, Map.of("MLX_RANK", String.valueOf(rank), "MLX_JACCL_COORDINATOR", coordinator,
                "MLX_IBV_DEVICES", "/tmp/hosts_" + rank + ".json", "MLX_JACCL_RING", "1"), Optional.of(row), Optional.empty(), Optional.empty());
    }

    /** The hostfile digest of the ring ranks of {@link #ring}: one job. */
    static final String RING_DIGEST = "3f2a9c0e1b7d4a55" + "0".repeat(48);

    /**
     * A rank of MLX's ring backend as mlx.launch starts it: MLX_RANK and MLX_HOSTFILE set, its hostfile's digest and its
     * own entry of that hostfile read (the file's {@code size} entries; its addresses {@code ip:port}).
     */
    static LocalRank ring(long pid, String rank, int size, String... addresses) {
        return new LocalRank(pid, 1_700_000_000_000L + pid, Map.of("MLX_RANK", rank, "MLX_HOSTFILE", "/tmp/tmp.r" + pid),
                Optional.empty(), Optional.of(RING_DIGEST), Optional.of(new RingEntry(size, List.of(addresses))));
    }

    /** A ring rank as {@link #ring} whose entry is not published (its file unreadable, or a host name in it). */
    static LocalRank ringWithoutEntry(long pid, String rank) {
        return new LocalRank(pid, 1_700_000_000_000L + pid, Map.of("MLX_RANK", rank, "MLX_HOSTFILE", "/tmp/tmp.r" + pid),
                Optional.empty(), Optional.of(RING_DIGEST), Optional.empty());
    }

    /** A process with these settings (name, value, ...), no devices row and no hostfile. */
    static LocalRank process(long pid, String... settings) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < settings.length; i += 2) {
            map.put(settings[i], settings[i + 1]);
        }
        return new LocalRank(pid, 1_700_000_000_000L + pid, map, Optional.empty(), Optional.empty(), Optional.empty());
    }
}
