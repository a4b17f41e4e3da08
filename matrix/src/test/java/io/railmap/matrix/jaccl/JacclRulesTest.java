package io.railmap.matrix.jaccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Conformance of {@link JacclRules} with jaccl's own code, one rule per test, each naming the file and
 * function of the ml-explore/mlx repository (at the tag of the release band) it mirrors.
 */
class JacclRulesTest {
    private static final MlxVersion V0_30_5 = new MlxVersion(0, 30, 5);
    private static final MlxVersion V0_31_1 = new MlxVersion(0, 31, 1);
    private static final MlxVersion V0_32_0 = new MlxVersion(0, 32, 0);

    /** Rows of cells; a cell is "-" (null) or names joined by '+'. */
    static List<List<List<String>>> cells(String... rows) {
        List<List<List<String>>> out = new ArrayList<>();
        for (String row : rows) {
            List<List<String>> r = new ArrayList<>();
            for (String cell : row.split("\\|", -1)) {
                r.add(cell.equals("-") ? List.of() : Arrays.asList(cell.split("\\+")));
            }
            out.add(r);
        }
        return out;
    }

    /** n ranks, every pair joined by {@code wires} names. */
    static List<List<List<String>>> full(int n, int wires) {
        List<List<List<String>>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<List<String>> row = new ArrayList<>();
            for (int j = 0; j < n; j++) {
                List<String> cell = new ArrayList<>();
                for (int k = 0; i != j && k < wires; k++) {
                    cell.add("d" + j + "_" + k);
                }
                row.add(cell);
            }
            out.add(row);
        }
        return out;
    }

    @Test
    void newestMeshNeedsTwoRanksEveryPairAndAnEmptyDiagonal() {
        // lib/jaccl/jaccl.cpp Config::is_valid_mesh: size >= 2, off-diagonal non-empty, diagonal empty
        assertThat(JacclRules.isValidMesh(cells("-"), MlxVersion.NEWEST)).isFalse();
        assertThat(JacclRules.isValidMesh(cells("-|x+y", "x+y|-"), MlxVersion.NEWEST)).isTrue();
        assertThat(JacclRules.isValidMesh(cells("z|x", "x|-"), MlxVersion.NEWEST)).isFalse();
        assertThat(JacclRules.isValidMesh(cells("-|x|-", "x|-|y", "-|y|-"), MlxVersion.NEWEST)).isFalse();
        // no size limit in the test itself: 9 ranks are a valid mesh (the mesh group then throws)
        assertThat(JacclRules.isValidMesh(full(9, 1), MlxVersion.NEWEST)).isTrue();
    }

    @Test
    void beforeMultiNameAMeshCellHoldsExactlyOneName() {
        // v0.31.1 jaccl.cpp DeviceFile::is_valid_mesh: size() == (src != dst) for every cell; no size check
        assertThat(JacclRules.isValidMesh(cells("-|x+y", "x+y|-"), V0_31_1)).isFalse();
        assertThat(JacclRules.isValidMesh(cells("-|x", "y|-"), V0_31_1)).isTrue();
        assertThat(JacclRules.isValidMesh(cells("-"), V0_31_1)).isTrue();
    }

    @Test
    void newestRingLooksOnlyAtNeighbourCellsAndAllowsNoWires() {
        // lib/jaccl/jaccl.cpp Config::is_valid_ring: neighbour cells as long as devices[0][1], others unread
        assertThat(JacclRules.isValidRing(cells("-|a+b|c", "a+b|-|d+e", "c|d+e|-"), MlxVersion.NEWEST)).isFalse();
        List<List<List<String>>> fourRing = cells("-|a|x|b", "a|-|c|y", "x|c|-|d", "b|y|d|-");
        assertThat(JacclRules.isValidRing(fourRing, MlxVersion.NEWEST)).isTrue();
        assertThat(JacclRules.isValidRing(cells("-|-|-", "-|-|-", "-|-|-"), MlxVersion.NEWEST)).isTrue();
        assertThat(JacclRules.isValidRing(cells("-"), MlxVersion.NEWEST)).isFalse();
    }

    @Test
    void beforeMultiNameARingNeedsWiresAndNullNonNeighbourCells() {
        // v0.31.1 jaccl.cpp DeviceFile::is_valid_ring: num_connections > 0; every non-neighbour cell empty
        List<List<List<String>>> fourRing = cells("-|a|x|b", "a|-|c|y", "x|c|-|d", "b|y|d|-");
        assertThat(JacclRules.isValidRing(fourRing, V0_31_1)).isFalse();
        assertThat(JacclRules.isValidRing(cells("-|a|-|b", "a|-|c|-", "-|c|-|d", "b|-|d|-"), V0_31_1)).isTrue();
        assertThat(JacclRules.isValidRing(cells("-|-|-", "-|-|-", "-|-|-"), V0_31_1)).isFalse();
        assertThat(JacclRules.isValidRing(cells("z|a", "a|-"), V0_31_1)).isFalse();
    }

    @Test
    void before0306ThereIsNoRing() {
        // v0.30.5 jaccl.cpp init: only the mesh (ConnectionManager), no MLX_JACCL_RING
        assertThat(JacclRules.isValidRing(cells("-|a", "a|-"), V0_30_5)).isFalse();
        assertThat(JacclRules.init(cells("-|-|-", "-|-|-", "-|-|-"), true, V0_30_5).mode()).isEmpty();
    }

    @Test
    void initPrefersTheRingOnlyWhenAskedAndValid() {
        // lib/jaccl/jaccl.cpp init(const Config&): ring if prefer_ring && valid ring, else mesh, else ring
        List<List<List<String>>> pair = cells("-|a+b", "a+b|-");
        assertThat(JacclRules.init(pair, true, MlxVersion.NEWEST)).isEqualTo(new JacclInit(Optional.of(JacclMode.RING), Optional.empty()));
        assertThat(JacclRules.init(pair, false, MlxVersion.NEWEST).mode()).contains(JacclMode.MESH);
        List<List<List<String>>> ringOnly = cells("-|a|-|b", "a|-|c|-", "-|c|-|d", "b|-|d|-");
        assertThat(JacclRules.init(ringOnly, false, MlxVersion.NEWEST).mode()).contains(JacclMode.RING);
    }

    @Test
    void aMeshAboveEightRanksThrows() {
        // lib/jaccl/mesh.cpp MeshGroup::MeshGroup: size_ > MESH_MAX_PEERS (8, mesh_impl.h) throws
        JacclInit nine = JacclRules.init(full(9, 1), false, MlxVersion.NEWEST);
        assertThat(nine.mode()).contains(JacclMode.MESH);
        assertThat(nine.failure()).hasValueSatisfying(f -> assertThat(f).contains("above 8 ranks"));
        assertThat(JacclRules.init(full(9, 1), true, MlxVersion.NEWEST).runs(JacclMode.RING)).isTrue();
        assertThat(JacclRules.init(full(8, 1), false, MlxVersion.NEWEST).runs(JacclMode.MESH)).isTrue();
    }

    @Test
    void aRingAboveFourWiresThrowsAndNoWiresMovesNothing() {
        // lib/jaccl/ring.cpp RingGroup::RingGroup: left or right above RING_MAX_CONNS (4, ring_impl.h) throws
        assertThat(JacclRules.init(full(2, 5), true, MlxVersion.NEWEST).failure()).hasValueSatisfying(f -> assertThat(f).contains("above 4"));
        assertThat(JacclRules.init(full(2, 4), true, MlxVersion.NEWEST).runs(JacclMode.RING)).isTrue();
        assertThat(JacclRules.init(cells("-|-|-", "-|-|-", "-|-|-"), true, MlxVersion.NEWEST).failure())
                .hasValueSatisfying(f -> assertThat(f).contains("no wires"));
    }

    @Test
    void aMultiWireRingHangsInSendRecvBefore0320() {
        // v0.31.2 lib/jaccl/ring_impl.h RingImpl::recv prefills each wire while N * buff < limits[lw], the
        // message's end, not the wire's slice: a wire waits for frames never sent (mlx #3654, fixed in v0.32.0)
        assertThat(JacclRules.init(full(2, 2), true, MlxVersion.MULTI_NAME).runs()).isFalse();
        assertThat(JacclRules.init(full(2, 2), true, MlxVersion.MULTI_NAME).failure())
                .hasValueSatisfying(f -> assertThat(f).contains("send/recv", "0.32.0"));
        assertThat(JacclRules.init(full(2, 1), true, MlxVersion.MULTI_NAME).runs(JacclMode.RING)).isTrue();
        // v0.32.0 lib/jaccl/ring_impl.h RingImpl::all_reduce and all_gather interleave the wires' frames
        // (offset lw * N + count * n_wires * N) and have no region_end: the slice overrun fixed by mlx #4193
        // came with mlx #3900, whose first release is v0.32.1 too
        assertThat(MlxVersion.MULTI_WIRE_RING).isEqualTo(V0_32_0);
        assertThat(JacclRules.init(full(2, 2), true, V0_32_0).runs(JacclMode.RING)).isTrue();
        assertThat(JacclRules.init(full(2, 4), true, V0_32_0).runs(JacclMode.RING)).isTrue();
    }

    @Test
    void aFileValidAsNeitherIsAGroupOfOneSince0312AndThrowsBefore() {
        // lib/jaccl/jaccl.cpp init: returns nullptr when not strict; v0.31.1 jaccl.cpp init throws
        List<List<List<String>>> broken = cells("-|a|-", "a|-|b", "-|b|-");
        assertThat(JacclRules.init(broken, false, MlxVersion.NEWEST).failure()).hasValueSatisfying(f -> assertThat(f).contains("group of one"));
        assertThat(JacclRules.init(broken, false, V0_31_1).failure()).hasValueSatisfying(f -> assertThat(f).contains("throws"));
    }

    @Test
    void oneRankIsAGroupOfOneInEveryRelease() {
        // v0.31.2 lib/jaccl/jaccl.cpp Config::is_valid_mesh and Config::is_valid_ring: size_ < 2 is neither,
        // so init gives no group and mx.distributed.init() (not strict) falls back to a group of one
        assertThat(JacclRules.init(cells("-"), false, MlxVersion.NEWEST).failure())
                .hasValueSatisfying(f -> assertThat(f).contains("at least 2 ranks", "group of one"));
        // v0.31.1 jaccl.cpp DeviceFile::is_valid_mesh holds for [[null]] and MeshGroup::MeshGroup takes a size of 1;
        // v0.30.5 jaccl.cpp init builds a ConnectionManager of device_names.size() == 1: a group of one either way
        for (MlxVersion v : List.of(MlxVersion.FIRST_JACCL, V0_30_5, V0_31_1)) {
            assertThat(JacclRules.init(cells("-"), false, v).failure()).as("MLX %s", v)
                    .hasValueSatisfying(f -> assertThat(f).contains("mesh of that rank alone", "group of one"));
        }
        for (MlxVersion v : List.of(MlxVersion.FIRST_JACCL, V0_31_1, MlxVersion.MULTI_NAME, V0_32_0, MlxVersion.NEWEST)) {
            assertThat(JacclRules.init(cells("-"), false, v).runs()).as("MLX %s", v).isFalse();
        }
    }

    @Test
    void theOldestReleaseThatRunsAFile() {
        // v0.30.1 jaccl.cpp load_device_names and init: one name per cell, a mesh of up to MAX_PEERS (8)
        assertThat(JacclRules.oldestRunning(full(2, 1), JacclMode.MESH)).contains(MlxVersion.FIRST_JACCL);
        // v0.31.2 lib/jaccl/jaccl.cpp Config::is_valid_mesh: several names per cell (v0.31.1 DeviceFile::is_valid_mesh: one)
        assertThat(JacclRules.oldestRunning(full(2, 2), JacclMode.MESH)).contains(MlxVersion.MULTI_NAME);
        // v0.32.0 lib/jaccl/ring_impl.h RingImpl::recv: the multi-wire prefill deadlock fixed (mlx #3654)
        assertThat(JacclRules.oldestRunning(full(2, 2), JacclMode.RING)).contains(V0_32_0);
        // v0.30.6 jaccl.cpp DeviceFile::is_valid_ring: the first ring, null cells between non-neighbours
        assertThat(JacclRules.oldestRunning(cells("-|a|-|b", "a|-|c|-", "-|c|-|d", "b|-|d|-"), JacclMode.RING)).contains(MlxVersion.RING);
        // v0.31.2 lib/jaccl/jaccl.cpp Config::is_valid_ring: non-neighbour cells no longer read
        assertThat(JacclRules.oldestRunning(full(4, 1), JacclMode.RING)).contains(MlxVersion.MULTI_NAME);
        // lib/jaccl/mesh.cpp MeshGroup::MeshGroup: above MESH_MAX_PEERS (8) throws in every release
        assertThat(JacclRules.oldestRunning(full(9, 1), JacclMode.MESH)).isEmpty();
    }

    @Test
    void versionsParseAndNameTheirVariables() {
        assertThat(MlxVersion.parse("--mlx-version", "0.31.2")).isEqualTo(MlxVersion.MULTI_NAME);
        assertThat(MlxVersion.parse("--mlx-version", "1.0.0")).isGreaterThan(MlxVersion.NEWEST);
        assertThatThrownBy(() -> MlxVersion.parse("--mlx-version", "0.31")).hasMessageContaining("not an MLX version");
        assertThatThrownBy(() -> MlxVersion.parse("--mlx-version", "0.29.9")).hasMessageContaining("has no jaccl");
        assertThatThrownBy(() -> MlxVersion.parse("--mlx-version", "0.31.2\n")).hasMessageContaining("\\n");
        // v0.30.3 jaccl.cpp init reads MLX_JACCL_DEVICES; every other release MLX_IBV_DEVICES
        assertThat(new MlxVersion(0, 30, 3).devicesVariable()).isEqualTo("MLX_JACCL_DEVICES");
        assertThat(V0_30_5.devicesVariable()).isEqualTo("MLX_IBV_DEVICES");
        assertThat(V0_31_1.readsJacclVariables()).isFalse();
        assertThat(MlxVersion.MULTI_NAME.readsJacclVariables()).isTrue();
    }
}
