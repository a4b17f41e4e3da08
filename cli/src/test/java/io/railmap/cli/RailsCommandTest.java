package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railmap.cli.options.OutputFormat;
import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.emit.Formats;
import io.railmap.matrix.emit.RailTableFormat;
import io.railmap.matrix.fabric.RailTable;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@code railmap rails} and {@code railmap check --rails} on the example snapshots of two leaf switches. */
class RailsCommandTest {
    private static final String CLEAN = "../examples/snapshots/two-leaves.json";
    private static final String SWAPPED = "../examples/snapshots/two-leaves-swapped.json";

    @Test
    void railsPrintsOneRowPerLeafWithEveryNodesNic() {
        Run run = Run.of("rails", "--snapshot", CLEAN);

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out().lines().toList()).containsExactly(
                "RAIL  KIND    NAME        HCA     NICS",
                "0     switch  leaf-rail0  mlx5_0  gpu-01 mlx5_0 400 Gb/s, gpu-02 mlx5_0 400 Gb/s, gpu-03 mlx5_0 400 Gb/s, gpu-04 mlx5_0 400 Gb/s",
                "1     switch  leaf-rail1  mlx5_1  gpu-01 mlx5_1 400 Gb/s, gpu-02 mlx5_1 400 Gb/s, gpu-03 mlx5_1 400 Gb/s, gpu-04 mlx5_1 400 Gb/s");
    }

    @Test
    void everyRegisteredRailTableFormatIsWhatRailsFormatNamePrints() throws Exception {
        assertThat(Formats.RAIL_TABLES).extracting(RailTableFormat::name).as("rails --format takes every registered name, and no other")
                .containsExactlyElementsOf(Arrays.stream(OutputFormat.Kind.values()).map(OutputFormat.Kind::wireName).toList());
        RailTable table = RailTable.of(Topology.of(SnapshotCodec.readSnapshot(SWAPPED, Files.readString(Path.of(SWAPPED)))));
        for (RailTableFormat format : Formats.RAIL_TABLES) {
            Run run = Run.of("rails", "--snapshot", SWAPPED, "--format", format.name());
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).as(format.name()).startsWith(format.write(table));
            assertThat(run.out().equals(format.write(table))).as(format.name() + ": the findings follow unless the text holds them")
                    .isEqualTo(format.textHoldsFindings());
        }
    }

    @Test
    void checkRailsExitsTwoAndNamesTheSwappedNodesNicsAndTheLeafEachBelongsOn() {
        Run run = Run.of("check", "--rails", "--snapshot", SWAPPED);

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(run.out()).contains(
                "error cross-rail [rail 0] gpu-01:enp65s0f0np0 (mlx5_0) reaches rail 1 (leaf-rail1) port Ethernet1/11",
                "move gpu-01's mlx5_0 cable to leaf-rail0",
                "error cross-rail [rail 1] gpu-01:enp129s0f0np0 (mlx5_1) reaches rail 0 (leaf-rail0)",
                "rails: 2 errors, 0 warnings, 0 notes (2 rails");
        assertThat(Run.of("check", "--rails", "--snapshot", CLEAN).code()).isZero();
    }

    @Test
    void theJsonOfRailsAndOfCheckRailsCarryTheTable() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode rails = mapper.readTree(Run.of("rails", "--snapshot", SWAPPED, "--json").out());
        assertThat(rails.get("rails").get(1).get("nics").get(0).get("hca").asText()).isEqualTo("mlx5_0");
        assertThat(rails.get("findings")).hasSize(2);

        Run check = Run.of("check", "--rails", "--snapshot", SWAPPED, "--json");
        assertThat(check.code()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(mapper.readTree(check.out()).get("findings").get(0).get("code").asText()).isEqualTo("cross-rail");
        assertThat(mapper.readTree(check.out()).get("findings").get(0).get("ports").toString()).isEqualTo("[\"gpu-01:enp65s0f0np0\"]");
    }

    @Test
    void checkWithoutAFileOrRailsIsAUsageErrorThatSaysWhatToGive() {
        Run run = Run.of("check", "--snapshot", CLEAN);

        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).contains("nothing to check: give the devices file or hostfile to check (FILE), or --rails");
    }

    @Test
    void theMatrixJsonCarriesTheRailTableButItsFindingsDoNotChangeTheExitCode() throws Exception {
        Run run = Run.of("matrix", "--snapshot", SWAPPED, "--hosts", "gpu-02,gpu-03", "--format", "json");

        JsonNode plan = new ObjectMapper().readTree(run.out());
        assertThat(plan.get("railTable").get("rails")).hasSize(2);
        assertThat(plan.get("railTable").get("findings").get(0).get("code").asText()).isEqualTo("cross-rail");
        assertThat(plan.get("findings").toString()).doesNotContain("cross-rail");
    }
}
