package io.railmap.matrix.codec;

import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An mlx.launch hostfile as mlx.launch reads it (MLX 0.32.1, {@code python/mlx/_distributed_utils/common.py},
 * {@code Hostfile.from_file}), read by {@link HostfileCodec}. Host i is rank i.
 *
 * @param backend the backend the file names ({@code "jaccl"}, {@code "jaccl-ring"}, {@code "ring"},
 *                ...); empty when it names none (absent, null or {@code ""}, which mlx.launch all
 *                treat as none), always for a bare array of hosts
 * @param envs    the {@code KEY=VALUE} entries mlx.launch exports on every host before the job, in
 *                file order; empty for a bare array
 * @param hosts   the hosts in rank order
 * @param bare    true when the file is a bare array of hosts rather than an object with {@code hosts}
 * @param keys    which of {@code backend} and {@code envs} the object has (whatever their values), in
 *                that order; empty for a bare array. mlx.launch 0.30.6 to 0.32.0 fails without either
 */
public record Hostfile(Optional<String> backend, List<String> envs, List<Host> hosts, boolean bare, List<String> keys)
        implements CheckedFile {
    /** The backends mlx.launch knows ({@code launch.py}, {@code main}); any other it refuses. */
    public static final List<String> BACKENDS = List.of("ring", "mpi", "nccl", "jaccl", "jaccl-ring");

    /**
     * One host.
     *
     * @param ssh  what mlx.launch hands to {@code ssh}: a host name, an ssh alias or an address,
     *             possibly with {@code user@}; never empty
     * @param ips  its addresses; mlx.launch takes rank 0's first as jaccl's coordinator. Empty when
     *             the file has none (absent or null)
     * @param rdma its row of the jaccl devices matrix, one cell per host: empty for JSON
     *             {@code null}, else the names of the cell ({@code []} is a present, empty cell, which
     *             mlx.launch does not take for {@code null}); empty when the file has none
     * @param arrayCells the indices of the {@code rdma} cells written as JSON arrays, ascending
     *             (mlx.launch copies them into the devices file as they are, and MLX before 0.30.6
     *             cannot parse an array cell)
     */
    public record Host(String ssh, List<String> ips, List<Optional<List<String>>> rdma, List<Integer> arrayCells) {
        /** Copies the lists. */
        public Host {
            ips = List.copyOf(ips);
            rdma = List.copyOf(rdma);
            arrayCells = List.copyOf(arrayCells);
        }
    }

    /** Copies the lists. */
    public Hostfile {
        envs = List.copyOf(envs);
        hosts = List.copyOf(hosts);
        keys = List.copyOf(keys);
    }

    /** @return the JSON path of host {@code i}: {@code $.hosts[i]}, or {@code $[i]} in a bare array */
    public String path(int i) {
        return (bare ? "$" : "$.hosts") + "[" + i + "]";
    }

    /**
     * The variables mlx.launch exports on every host from {@code envs} ({@code launch.py},
     * {@code RemoteProcess.make_launch_script}): the key is the text up to the first {@code =} (the
     * value is empty when there is none); an entry whose key is not letters, digits and {@code _} is
     * skipped with a warning there, and skipped here; exported in file order, so of two entries with
     * one key the later wins.
     *
     * @return key → value, in file order of each key's first appearance
     */
    public Map<String, String> variables() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : envs) {
            int eq = entry.indexOf('=');
            String key = eq < 0 ? entry : entry.substring(0, eq);
            if (!key.isEmpty() && key.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')) {
                out.put(key, eq < 0 ? "" : entry.substring(eq + 1));
            }
        }
        return out;
    }

    /** @return the {@code [i, j]} of every {@code rdma} cell written as a JSON array: host i, cell j, row by row */
    public List<List<Integer>> arrayCells() {
        List<List<Integer>> out = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            for (int j : hosts.get(i).arrayCells()) {
                out.add(List.of(i, j));
            }
        }
        return out;
    }

    /** @return each host's {@code ssh}, in rank order */
    public List<String> sshNames() {
        return hosts.stream().map(Host::ssh).toList();
    }

    /**
     * The devices file mlx.launch writes for jaccl, {@code [h.rdma for h in hosts]}, after the checks
     * it makes first ({@code launch.py}, {@code launch_jaccl}): rank 0 has an address, every row has
     * one cell per host, and every host's own cell is {@code null}.
     *
     * @param source what the text came from, for error messages
     * @return {@code cells[i][j][k]}: ranks × ranks × wires, a {@code null} cell as an empty list
     * @throws FormatException when mlx.launch would refuse the file for jaccl: no hosts (mlx.launch
     *                         fails on {@code hosts[0]}), rank 0 without {@code ips}, a row of
     *                         another length than the number of hosts, or an own cell that is not
     *                         {@code null}; the message quotes what mlx.launch says and what to do
     */
    public List<List<List<String>>> jacclDevices(String source) {
        int n = hosts.size();
        if (n == 0) {
            throw new FormatException(source, bare ? "$" : "$.hosts", "the hostfile lists no hosts, and mlx.launch fails on it "
                    + "(it reads hosts[0]): list one host per rank");
        }
        if (hosts.get(0).ips().isEmpty()) {
            throw new FormatException(source, path(0) + ".ips", "rank 0 (" + shown(0) + ") has no address, and mlx.launch refuses "
                    + "the file (\"Rank 0 should have an IP reachable from all other ranks\"): give rank 0 the address the "
                    + "other hosts reach it at, e.g. \"ips\": [\"192.168.1.21\"] (mlx.launch uses the first as jaccl's coordinator)");
        }
        List<List<List<String>>> cells = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<Optional<List<String>>> row = hosts.get(i).rdma();
            if (row.size() != n) {
                throw new FormatException(source, path(i) + ".rdma", "rank " + i + " (" + shown(i) + ") has " + row.size()
                        + (row.size() == 1 ? " cell" : " cells") + " but the hostfile has " + n + " hosts, and mlx.launch refuses "
                        + "the file (\"Malformed hostfile for jaccl backend\"): give every host one rdma cell per host, in host "
                        + "order, with null at its own place");
            }
            if (row.get(i).isPresent()) {
                throw new FormatException(source, path(i) + ".rdma[" + i + "]", "rank " + i + " (" + shown(i) + ") has "
                        + (row.get(i).get().isEmpty() ? "[]" : "\"" + Names.escape(String.join(", ", row.get(i).get())) + "\"")
                        + " in its own cell, and mlx.launch refuses the file (\"Malformed hostfile for jaccl backend\"): "
                        + "write null at a host's own place (a host has no link to itself)");
            }
            cells.add(row.stream().map(cell -> cell.orElse(List.of())).toList());
        }
        return List.copyOf(cells);
    }

    private String shown(int i) {
        return "ssh \"" + Names.escape(hosts.get(i).ssh()) + "\"";
    }
}
