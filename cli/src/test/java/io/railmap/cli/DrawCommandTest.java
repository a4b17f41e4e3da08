package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.codec.SnapshotCodec;
import io.railmap.matrix.draw.TopologySvg;
import io.railmap.matrix.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code railmap draw} from a snapshot file: the picture of {@link TopologySvg}, written whole or not at all. */
class DrawCommandTest {
    private static final String RING = "../examples/snapshots/four-studios-ring.json";

    @TempDir
    Path dir;

    @Test
    void drawWritesThePictureOfTheSnapshotToTheFileItIsGiven() throws Exception {
        Path out = dir.resolve("topology.svg");
        Run run = Run.of("draw", "--snapshot", RING, "-o", out.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEmpty();
        String expected = TopologySvg.render(Topology.of(SnapshotCodec.readSnapshot(RING, Files.readString(Path.of(RING)))));
        assertThat(Files.readString(out)).isEqualTo(expected).contains("data-node=\"studio-d\"", "data-cable=\"studio-a:en2 studio-b:en4\"");
        assertThat(Run.of("draw", "--snapshot", RING).out()).isEqualTo(expected);
    }

    @Test
    void aSwitchedFabricIsDrawnAsARailDiagramThatCountsItsCablesSwitchesAndRails() throws Exception {
        Run run = Run.of("draw", "--snapshot", "../examples/snapshots/two-leaves.json");

        assertThat(run.code()).as(run.err()).isZero();
        // issue 29: the header counted "0 cables" when every cable ended on a switch
        assertThat(run.out()).contains("<title>railmap topology: 4 nodes, 8 cables, 2 switches, 2 rails, 0 findings</title>",
                "data-cables=\"8\" data-switches=\"2\" data-rails=\"2\"", "<g class=\"switch\" data-switch=\"leaf-rail1\" data-rail=\"1\">")
                .doesNotContain("<circle");
    }

    @Test
    void aMissingSnapshotOrAnOutputThatIsADirectoryIsOneLineAndNoFile() throws Exception {
        Run missing = Run.of("draw", "--snapshot", dir.resolve("none.json").toString(), "-o", dir.resolve("t.svg").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(missing.err()).startsWith("railmap: ").contains("none.json").doesNotContain("Exception");
        assertThat(dir.resolve("t.svg")).doesNotExist();

        Run directory = Run.of("draw", "--snapshot", RING, "-o", dir.toString());
        assertThat(directory.code()).isNotZero();
        assertThat(directory.err()).startsWith("railmap: ").doesNotContain("Exception");
        assertThat(dir).isDirectory();
    }
}
