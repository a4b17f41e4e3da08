package io.railmap.matrix.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.codec.FormatException;
import io.railmap.matrix.codec.Hostfile;
import io.railmap.matrix.codec.HostfileCodec;
import io.railmap.matrix.jaccl.MlxVersion;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The mode a hostfile is checked in, against MLX 0.32.1: {@code python/mlx/_distributed_utils/launch.py}
 * ({@code main} picks the backend, {@code launch_jaccl} adds {@code MLX_JACCL_RING=1} for
 * {@code jaccl-ring}, {@code RemoteProcess.make_launch_script} exports {@code envs}) and
 * {@code mlx/distributed/jaccl/lib/jaccl/jaccl.cpp} ({@code Config::from_env}: the ring is preferred
 * when {@code JACCL_RING} or {@code MLX_JACCL_RING} exists at all).
 */
class LaunchModeTest {
    private static Hostfile file(String backendAndEnvs) {
        return HostfileCodec.read("h.json", "{" + backendAndEnvs + (backendAndEnvs.isEmpty() ? "" : ", ") + "\"hosts\": [{\"ssh\": \"a\"}]}");
    }

    private static LaunchMode of(String backendAndEnvs) {
        return LaunchMode.of("h.json", file(backendAndEnvs), Optional.empty(), "--mode", MlxVersion.NEWEST);
    }

    @Test
    void jacclRingIsARing() {
        // launch_jaccl: `if jaccl_ring: env.append("MLX_JACCL_RING=1")`
        LaunchMode mode = of("\"backend\": \"jaccl-ring\"");
        assertThat(mode.mode()).isEqualTo(Mode.RING);
        assertThat(mode.from()).isEqualTo(LaunchMode.Source.BACKEND);
        assertThat(mode.reason()).isEqualTo("backend jaccl-ring");
    }

    @Test
    void jacclWithoutARingVariableIsJacclsOwnChoice() {
        LaunchMode mode = of("\"backend\": \"jaccl\", \"envs\": [\"MLX_METAL_FAST_SYNCH=1\", \"X=MLX_JACCL_RING\", \"MLX_JACCL_RINGS=1\"]");
        assertThat(mode.mode()).isEqualTo(Mode.AUTO);
        assertThat(mode.from()).isEqualTo(LaunchMode.Source.BACKEND);
    }

    @Test
    void aRingVariableInEnvsMakesJacclARingWhateverItsValue() {
        // make_launch_script: key is the text before the first "="; a bare key is exported empty. from_env tests presence only
        for (String env : new String[] {"MLX_JACCL_RING=1", "MLX_JACCL_RING=0", "MLX_JACCL_RING", "JACCL_RING=", "JACCL_RING=a=b"}) {
            LaunchMode mode = of("\"backend\": \"jaccl\", \"envs\": [\"" + env + "\"]");
            assertThat(mode.mode()).as(env).isEqualTo(Mode.RING);
            assertThat(mode.from()).as(env).isEqualTo(LaunchMode.Source.ENVS);
            assertThat(mode.reason()).as(env).contains(env.split("=")[0] + " in envs", "whatever its value");
        }
    }

    @Test
    void withoutAJacclBackendMlxLaunchWouldNotRunJacclSoThereIsNothingToCheck() {
        // main: no backend means "nccl" with CUDA, else "ring"
        assertThatThrownBy(() -> of("")).isInstanceOf(FormatException.class)
                .hasMessage("h.json: at $.backend: the hostfile names no backend, so mlx.launch would not run jaccl or the ring (it would run"
                        + " ring, or nccl where CUDA is available): set \"backend\" to \"jaccl\", \"jaccl-ring\" or \"ring\", or give --mode to check "
                        + "the rdma rows as jaccl would read them (as mlx.launch --backend jaccl would run them)");
        assertThatThrownBy(() -> LaunchMode.of("h.json", HostfileCodec.read("h.json", "[{\"ssh\": \"a\"}]"), Optional.empty(), "mode=", MlxVersion.NEWEST))
                .hasMessageStartingWith("h.json: at $: a bare array of hosts names no backend, so mlx.launch would not run jaccl")
                .hasMessageContaining("or give mode= to check");
        assertThatThrownBy(() -> of("\"backend\": \"nccl\", \"envs\": [\"MLX_JACCL_RING=1\"]"))
                .hasMessageStartingWith("h.json: at $.backend: the backend is \"nccl\", so mlx.launch would not run jaccl or the ring: set");
        // main: any other backend is "The backend should be one of {...}"
        assertThatThrownBy(() -> of("\"backend\": \"jacl\""))
                .hasMessageStartingWith("h.json: at $.backend: the backend is \"jacl\", so mlx.launch would not run jaccl or the ring (it refuses "
                        + "the file: \"The backend should be one of {'ring', 'mpi', 'nccl', 'jaccl', 'jaccl-ring'}\")");
    }

    @Test
    void theRingBackendIsCheckedAsMlxsTcpRing() {
        // launch.py main: backend "ring" runs launch_ring over the hosts' ips, whatever the envs
        LaunchMode mode = of("\"backend\": \"ring\", \"envs\": [\"MLX_JACCL_RING=1\"]");
        assertThat(mode.mode()).isEqualTo(Mode.MLX_RING);
        assertThat(mode.from()).isEqualTo(LaunchMode.Source.BACKEND);
        assertThat(mode.reason()).isEqualTo("backend ring: MLX's TCP ring backend over the hosts' ips");
    }

    @Test
    void aModeAskedForWinsAndSaysWhatTheFileAloneWouldMean() {
        // main: `if hostfile.backend != "" and args.backend is None` — mlx.launch --backend overrides the file the same way
        LaunchMode overRing = LaunchMode.of("h.json", file("\"backend\": \"jaccl-ring\""), Optional.of(Mode.MESH), "--mode", MlxVersion.NEWEST);
        assertThat(overRing.mode()).isEqualTo(Mode.MESH);
        assertThat(overRing.from()).isEqualTo(LaunchMode.Source.GIVEN);
        assertThat(overRing.reason()).isEqualTo("--mode, over the file (backend jaccl-ring: ring)");

        LaunchMode noBackend = LaunchMode.of("h.json", file(""), Optional.of(Mode.RING), "--mode", MlxVersion.NEWEST);
        assertThat(noBackend.mode()).isEqualTo(Mode.RING);
        assertThat(noBackend.reason()).isEqualTo("--mode, over the file (the hostfile names no backend: not jaccl)");
    }

    @Test
    void jacclRingCountsOnlyWhereJacclReadsIt() {
        // v0.31.1 jaccl.cpp init reads MLX_JACCL_RING only; lib/jaccl/jaccl.cpp Config::from_env (0.31.2) reads JACCL_RING first
        Hostfile file = file("\"backend\": \"jaccl\", \"envs\": [\"JACCL_RING=1\"]");
        assertThat(LaunchMode.of("h.json", file, Optional.empty(), "--mode", new MlxVersion(0, 31, 1)).mode()).isEqualTo(Mode.AUTO);
        assertThat(LaunchMode.of("h.json", file, Optional.empty(), "--mode", MlxVersion.MULTI_NAME).mode()).isEqualTo(Mode.RING);
    }
}
