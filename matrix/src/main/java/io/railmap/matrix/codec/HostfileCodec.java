package io.railmap.matrix.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads mlx.launch hostfiles, as {@code mlx.distributed_config} writes them and {@code mlx.launch}
 * reads them (MLX 0.32.1, {@code python/mlx/_distributed_utils/common.py}, {@code Hostfile.from_file};
 * {@code config.py}, {@code configure_jaccl} and {@code configure_jaccl_ring}, write them with
 * {@code json.dump(..., indent=4)}):
 *
 * <pre>
 * {"backend": "jaccl-ring", "envs": ["KEY=VALUE", ...],
 *  "hosts": [{"ssh": "studio-a.local", "ips": ["192.168.1.21"], "rdma": [null, ["rdma_en2", "rdma_en3"], ...]}, ...]}
 * </pre>
 * or a bare array of the host objects. {@code backend} and {@code envs} may be absent (MLX 0.32.1; the
 * keys present are kept, since 0.30.6 to 0.32.0 need both and 0.30.1 to 0.30.5 read only a bare array:
 * {@code railmap check} applies the release's rule), {@code hosts} is required; per host {@code ssh} is required, {@code ips} may be absent or null and {@code rdma}
 * absent. A cell
 * of {@code rdma} is what jaccl reads in a devices file ({@link DevicesCodec}): null, a name or an
 * array of names.
 *
 * <p>Unlike railmap's own files, a hostfile is not read strictly: unknown keys, at the top or in a
 * host, are ignored, because another tool writes the file and mlx.launch itself ignores them (it
 * reads the keys it knows with {@code dict.get}). What mlx.launch or jaccl would fail on is an
 * error: a key of the wrong type ({@code envs} that is not an array of strings, {@code hosts} that
 * is not an array, a host that is not an object, {@code ssh} that is not a string), a null
 * {@code envs} or {@code rdma}, a missing {@code hosts} or {@code ssh}, and a cell jaccl cannot
 * parse. What mlx.launch refuses only when it
 * launches jaccl is checked by {@link Hostfile#jacclDevices}.
 */
public final class HostfileCodec {
    private HostfileCodec() {
    }

    /**
     * @param source what the text came from (a file name), for error messages
     * @param json   a hostfile
     * @return the hostfile
     * @throws FormatException when the text is not JSON, or is not a hostfile as described above;
     *                         the message names the JSON path and what to write instead
     */
    public static Hostfile read(String source, String json) {
        return read(JsonCursor.parse(source, json));
    }

    /** As {@link #read(String, String)}, for a document already parsed. */
    static Hostfile read(JsonCursor root) {
        if (root.isArray()) {
            return new Hostfile(Optional.empty(), List.of(), hosts(root), true, List.of());
        }
        if (!root.isObject()) {
            throw root.fail("an mlx.launch hostfile is an object with \"hosts\", or an array of hosts; found " + root.describe());
        }
        Optional<String> backend = root.optionalField("backend").map(JsonCursor::string).filter(b -> !b.isEmpty());
        List<String> envs = new ArrayList<>();
        if (root.has("envs")) {
            JsonCursor list = root.field("envs");
            if (list.isNull()) {
                throw list.fail("envs is null, and mlx.launch fails on it (it adds its --env entries to the list): write [] or leave envs out");
            }
            for (JsonCursor env : list.elements()) {
                if (!env.isString()) {
                    throw env.fail("an envs entry is a string KEY=VALUE, and mlx.launch fails on anything else; found " + env.describe());
                }
                envs.add(env.string());
            }
        }
        return new Hostfile(backend, envs, hosts(root.field("hosts")), false, Stream.of("backend", "envs").filter(root::has).toList());
    }

    private static List<Hostfile.Host> hosts(JsonCursor list) {
        if (!list.isArray()) {
            throw list.fail("hosts is an array of hosts, one per rank, e.g. [{\"ssh\": \"studio-a.local\", \"ips\": [...], \"rdma\": [...]}]; "
                    + "found " + list.describe());
        }
        List<Hostfile.Host> hosts = new ArrayList<>();
        for (JsonCursor host : list.elements()) {
            hosts.add(host(host));
        }
        return hosts;
    }

    private static Hostfile.Host host(JsonCursor host) {
        if (!host.isObject()) {
            throw host.fail("a host is an object such as {\"ssh\": \"studio-a.local\", \"ips\": [...], \"rdma\": [...]}; found " + host.describe());
        }
        if (!host.has("ssh")) {
            throw host.fail("a host needs \"ssh\", the name mlx.launch connects to; mlx.launch fails without it");
        }
        JsonCursor sshField = host.field("ssh");
        String ssh = sshField.string();
        if (ssh.isEmpty()) {
            throw sshField.fail("ssh is empty: name the host mlx.launch connects to");
        }
        List<String> ips = new ArrayList<>();
        for (JsonCursor ip : host.optionalField("ips").map(JsonCursor::elements).orElse(List.of())) {
            ips.add(ip.string());
        }
        if (host.has("rdma") && host.field("rdma").isNull()) {
            throw host.field("rdma").fail("rdma is null, and mlx.launch fails on it with jaccl (it takes the row's length): "
                    + "write the host's row of the devices matrix, or leave rdma out");
        }
        List<Optional<List<String>>> rdma = new ArrayList<>();
        List<Integer> arrays = new ArrayList<>();
        for (JsonCursor cell : host.optionalField("rdma").map(JsonCursor::elements).orElse(List.of())) {
            if (cell.isArray()) {
                arrays.add(rdma.size());
            }
            rdma.add(cell.isNull() ? Optional.empty() : Optional.of(DevicesCodec.cell(cell)));
        }
        return new Hostfile.Host(ssh, ips, rdma, arrays);
    }
}
