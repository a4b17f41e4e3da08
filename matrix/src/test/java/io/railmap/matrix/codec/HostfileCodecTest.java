package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The hostfile reader against MLX 0.32.1's own code: {@code python/mlx/_distributed_utils/common.py}
 * ({@code Hostfile.from_file}), {@code launch.py} ({@code main}, {@code launch_jaccl}) and
 * {@code config.py} ({@code configure_jaccl_ring}). Each test names the rule it mirrors.
 */
class HostfileCodecTest {
    /** Written by MLX 0.32.1's configure_jaccl_ring itself (examples/hostfiles/four-studios-ring.py). */
    static final Path FOUR_STUDIOS = Path.of("../examples/hostfiles/four-studios-ring.json");

    private static List<List<String>> row(Object... cells) {
        return java.util.Arrays.stream(cells).map(c -> c == null ? List.<String>of() : c instanceof String s ? List.of(s) : (List<String>) c).toList();
    }

    @Test
    void envsAreTheVariablesMlxLaunchExports() {
        // launch.py RemoteProcess.make_launch_script: key before the first "=", a bare key exported empty,
        // a key that is not alphanumeric or "_" skipped; exported in order, so a later entry wins
        Hostfile file = HostfileCodec.read("h.json", "{\"backend\": \"jaccl\", \"envs\": [\"A=1\", \"B\", \"C=x=y\","
                + " \"BAD-KEY=1\", \"=2\", \"A=3\"], \"hosts\": [{\"ssh\": \"a\"}]}");
        assertThat(file.variables()).containsExactly(java.util.Map.entry("A", "3"), java.util.Map.entry("B", ""),
                java.util.Map.entry("C", "x=y"));
    }

    @Test
    void readsWhatMlxDistributedConfigWritesAndGivesTheDevicesFileMlxLaunchWould() throws IOException {
        // config.py configure_jaccl_ring: json.dump(indent=4); rows in ring order, null off the ring, a list per neighbour
        Hostfile file = HostfileCodec.read("h.json", Files.readString(FOUR_STUDIOS));

        assertThat(file.backend()).contains("jaccl-ring");
        assertThat(file.envs()).isEmpty();
        assertThat(file.bare()).isFalse();
        assertThat(file.sshNames()).containsExactly("studio-a.local", "studio-b.local", "studio-c.local", "studio-d.local");
        assertThat(file.hosts().get(0).ips()).containsExactly("192.168.1.21");
        assertThat(file.hosts().get(0).rdma()).containsExactly(Optional.empty(), Optional.of(List.of("rdma_en2", "rdma_en3")),
                Optional.empty(), Optional.of(List.of("rdma_en4", "rdma_en5")));
        // launch.py launch_jaccl: MLX_IBV_DEVICES is json.dumps([h.rdma for h in hosts]) (as mlx.launch printed it for this file)
        List<String> ab = List.of("rdma_en2", "rdma_en3");
        List<String> cd = List.of("rdma_en4", "rdma_en5");
        assertThat(file.jacclDevices("h.json")).isEqualTo(List.of(row(null, ab, null, cd), row(cd, null, ab, null),
                row(null, cd, null, ab), row(ab, null, cd, null)));
    }

    @Test
    void aBareArrayIsTheHostsWithNoBackendAndNoEnvs() {
        // common.py from_file: `elif isinstance(data, list): hosts = data`, backend "" and envs []
        Hostfile file = HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, \"rdma_en2\"]},"
                + " {\"ssh\": \"b\", \"rdma\": [\"rdma_en2\", null]}]");
        assertThat(file.bare()).isTrue();
        assertThat(file.backend()).isEmpty();
        assertThat(file.envs()).isEmpty();
        assertThat(file.path(1)).isEqualTo("$[1]");
        assertThat(file.jacclDevices("h.json")).isEqualTo(List.of(row(null, "rdma_en2"), row("rdma_en2", null)));
    }

    @Test
    void unknownKeysAreIgnoredAsMlxLaunchIgnoresThem() {
        // from_file reads data.get("backend"), data.get("envs"), data["hosts"], h["ssh"], h.get("ips"), h.get("rdma") and nothing else
        Hostfile file = HostfileCodec.read("h.json", "{\"backend\": \"jaccl\", \"comment\": {\"by\": \"hand\"}, \"hosts\": ["
                + "{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, \"rdma_en2\"], \"gpu\": 1},"
                + "{\"ssh\": \"b\", \"rdma\": [\"rdma_en2\", null], \"rdmaa\": []}]}");
        assertThat(file.sshNames()).containsExactly("a", "b");
        assertThat(file.hosts().get(1).ips()).isEmpty();
    }

    @Test
    void anEmptyOrNullBackendIsNoBackendAndAbsentOrNullIpsAreNone() {
        // launch.py main: a backend is taken from the file only when `hostfile.backend != ""`; null (None) then means the default too
        assertThat(HostfileCodec.read("h.json", "{\"backend\": \"\", \"hosts\": []}").backend()).isEmpty();
        assertThat(HostfileCodec.read("h.json", "{\"backend\": null, \"hosts\": []}").backend()).isEmpty();
        // from_file: h.get("ips", []); launch_jaccl reads only hosts[0].ips
        assertThat(HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": null}]").hosts().get(0).ips()).isEmpty();
    }

    @Test
    void rankZeroWithoutAnAddressIsRefusedAsMlxLaunchRefusesIt() {
        // launch_jaccl: `if not hosts[0].ips: parser.error("Rank 0 should have an IP reachable from all other ranks")`
        for (String ips : List.of("", ", \"ips\": []", ", \"ips\": null")) {
            Hostfile file = HostfileCodec.read("h.json", "{\"backend\": \"jaccl\", \"hosts\": [{\"ssh\": \"a\"" + ips
                    + ", \"rdma\": [null, \"x\"]}, {\"ssh\": \"b\", \"ips\": [\"10.0.0.2\"], \"rdma\": [\"x\", null]}]}");
            assertThatThrownBy(() -> file.jacclDevices("h.json")).isInstanceOf(FormatException.class)
                    .hasMessageStartingWith("h.json: at $.hosts[0].ips: rank 0 (ssh \"a\") has no address")
                    .hasMessageContaining("\"Rank 0 should have an IP reachable from all other ranks\"", "\"ips\": [");
        }
    }

    @Test
    void aRowOfTheWrongLengthIsRefusedAsMlxLaunchRefusesIt() {
        // launch_jaccl: `have_rdmas = all(len(h.rdma) == len(hosts) ...)`, else "Malformed hostfile for jaccl backend"
        Hostfile shortRow = HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, \"x\", \"y\"]},"
                + "{\"ssh\": \"b\", \"rdma\": [\"x\", null]}, {\"ssh\": \"c\", \"rdma\": [\"y\", null, null]}]");
        assertThatThrownBy(() -> shortRow.jacclDevices("h.json"))
                .hasMessage("h.json: at $[1].rdma: rank 1 (ssh \"b\") has 2 cells but the hostfile has 3 hosts, and mlx.launch refuses "
                        + "the file (\"Malformed hostfile for jaccl backend\"): give every host one rdma cell per host, in host order, "
                        + "with null at its own place");
        Hostfile noRow = HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"]}]");
        assertThatThrownBy(() -> noRow.jacclDevices("h.json")).hasMessageStartingWith("h.json: at $[0].rdma: rank 0 (ssh \"a\") has 0 cells");
    }

    @Test
    void anOwnCellThatIsNotNullIsRefusedEvenWhenEmpty() {
        // launch_jaccl: `have_nulls = all(h.rdma[i] is None ...)`: [] is not None, though jaccl would read it as no wire
        for (String own : List.of("[]", "\"rdma_en2\"", "[\"rdma_en2\"]")) {
            Hostfile file = HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"], \"rdma\": [null, \"x\"]},"
                    + "{\"ssh\": \"b\", \"rdma\": [\"x\", " + own + "]}]");
            assertThatThrownBy(() -> file.jacclDevices("h.json")).as(own)
                    .hasMessageStartingWith("h.json: at $[1].rdma[1]: rank 1 (ssh \"b\") has " + (own.equals("[]") ? "[]" : "\"rdma_en2\"")
                            + " in its own cell, and mlx.launch refuses the file (\"Malformed hostfile for jaccl backend\")");
        }
    }

    @Test
    void whatMlxLaunchCrashesOnIsAnErrorNamingThePath() {
        // launch.py main: `args.env = hostfile.envs + args.env` fails on null; make_launch_script splits each entry as a string
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "{\"envs\": null, \"hosts\": []}"))
                .hasMessageStartingWith("h.json: at $.envs: envs is null, and mlx.launch fails on it");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "{\"envs\": [\"A=1\", 2], \"hosts\": []}"))
                .hasMessageStartingWith("h.json: at $.envs[1]: an envs entry is a string KEY=VALUE");
        // launch_jaccl: `hosts[0]` of no hosts; len(h.rdma) of None
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "{\"hosts\": []}").jacclDevices("h.json"))
                .hasMessageStartingWith("h.json: at $.hosts: the hostfile lists no hosts");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"rdma\": null}]"))
                .hasMessageStartingWith("h.json: at $[0].rdma: rdma is null, and mlx.launch fails on it");
        // from_file: data["hosts"] and h["ssh"] are required (a KeyError is "Failed to parse hostfile")
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "{\"backend\": \"jaccl\", \"hosts\": null}"))
                .hasMessageStartingWith("h.json: at $.hosts: hosts is an array of hosts");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ips\": [\"10.0.0.1\"]}]"))
                .hasMessageStartingWith("h.json: at $[0]: a host needs \"ssh\"");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ssh\": 7}]")).hasMessage("h.json: at $[0].ssh: expected a string, found the number 7");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ssh\": \"\"}]")).hasMessageStartingWith("h.json: at $[0].ssh: ssh is empty");
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"ips\": [1]}]"))
                .hasMessage("h.json: at $[0].ips[0]: expected a string, found the number 1");
        // jaccl.cpp parse_devices_json: "Device names should be null, a string or array of strings."
        assertThatThrownBy(() -> HostfileCodec.read("h.json", "[{\"ssh\": \"a\", \"rdma\": [null, 5]}]"))
                .hasMessage("h.json: at $[0].rdma[1]: a cell is null, a device name or an array of device names");
    }

    @Test
    void aDevicesFileAndAHostfileAreToldApartByShape() {
        assertThat(CheckedFile.read("f", "[[null, \"x\"], [\"x\", null]]")).isEqualTo(new CheckedFile.Devices(
                List.of(row(null, "x"), row("x", null)), List.of()));
        assertThat(CheckedFile.read("f", "[]")).isEqualTo(new CheckedFile.Devices(List.of(), List.of()));
        // which cells were arrays is kept: MLX before 0.30.6 cannot parse one (v0.30.5 jaccl.cpp load_device_names)
        assertThat(CheckedFile.read("f", "[[[], [\"x\"]], [\"x\", null]]")).isEqualTo(new CheckedFile.Devices(
                List.of(row(null, "x"), row("x", null)), List.of(List.of(0, 0), List.of(0, 1))));
        assertThat(((Hostfile) CheckedFile.read("f", "[{\"ssh\": \"a\", \"rdma\": [null, [\"x\"]]}, {\"ssh\": \"b\", \"rdma\": [[], null]}]"))
                .arrayCells()).containsExactly(List.of(0, 1), List.of(1, 0));
        assertThat(CheckedFile.read("f", "{\"hosts\": [{\"ssh\": \"a\"}]}")).isInstanceOf(Hostfile.class);
        assertThat(CheckedFile.read("f", "[{\"ssh\": \"a\"}]")).isInstanceOf(Hostfile.class);
        // the first element decides; the reader of that kind names the element that does not fit
        assertThatThrownBy(() -> CheckedFile.read("f", "[{\"ssh\": \"a\"}, [null]]")).hasMessage(
                "f: at $[1]: a host is an object such as {\"ssh\": \"studio-a.local\", \"ips\": [...], \"rdma\": [...]}; found an array");
        assertThatThrownBy(() -> CheckedFile.read("f", "[[null], {}]")).hasMessageStartingWith("f: at $[1]: each row of a devices file is an array");

        for (String other : List.of("{\"format\": \"railmap-snapshot\"}", "\"rdma_en2\"", "null", "7")) {
            assertThatThrownBy(() -> CheckedFile.read("f", other)).as(other).isInstanceOf(FormatException.class)
                    .hasMessageStartingWith("f: at $: ")
                    .hasMessageContaining("neither a jaccl devices file (an array of rows, one per rank) nor an mlx.launch hostfile");
        }
        assertThatThrownBy(() -> CheckedFile.read("f", "[\"rdma_en2\"]")).hasMessage("f: at $[0]: expected a row of a jaccl devices "
                + "file (an array of cells) or a host of an mlx.launch hostfile (an object with \"ssh\"); found the string \"rdma_en2\"");
    }
}
