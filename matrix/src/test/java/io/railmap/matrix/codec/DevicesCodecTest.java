package io.railmap.matrix.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DevicesCodecTest {

    @Test
    void readsNullStringAndArrayCellsAndKeepsRaggedRowsAndEmptyNames() {
        List<List<List<String>>> cells = DevicesCodec.read("d.json", "[[null, \"rdma_en5\", [\"a\", \"\"]], [[], null]]");
        assertThat(cells).isEqualTo(List.of(
                List.of(List.of(), List.of("rdma_en5"), List.of("a", "")),
                List.of(List.of(), List.of())));
    }

    @Test
    void writesOneRowPerLineWithSingleWiresAsStrings() {
        String json = DevicesCodec.write(List.of(
                List.of(List.of(), List.of("rdma_en6", "rdma_en7")),
                List.of(List.of("rdma_en2"), List.of())));
        assertThat(json).isEqualTo("[\n  [null, [\"rdma_en6\",\"rdma_en7\"]],\n  [\"rdma_en2\", null]\n]\n");
        assertThat(DevicesCodec.read("again", json)).isEqualTo(List.of(
                List.of(List.of(), List.of("rdma_en6", "rdma_en7")),
                List.of(List.of("rdma_en2"), List.of())));
    }

    @Test
    void refusesToWriteAnEmptyName() {
        assertThatThrownBy(() -> DevicesCodec.write(List.of(List.of(List.of("")))))
                .hasMessageContaining("empty device name");
    }

    @Test
    void malformedFilesNameThePath() {
        assertThatThrownBy(() -> DevicesCodec.read("d.json", "{}")).hasMessage("d.json: at $: a jaccl devices file is an array of rows, one per rank");
        assertThatThrownBy(() -> DevicesCodec.read("d.json", "[[null], 3]")).hasMessage("d.json: at $[1]: each row of a devices file is an array of cells, one per rank");
        assertThatThrownBy(() -> DevicesCodec.read("d.json", "[[null, 4]]")).hasMessage("d.json: at $[0][1]: a cell is null, a device name or an array of device names");
        assertThatThrownBy(() -> DevicesCodec.read("d.json", "[[null, [\"a\", 4]]]")).hasMessage("d.json: at $[0][1][1]: a device name must be a string");
        assertThatThrownBy(() -> DevicesCodec.read("d.json", "[[null,")).hasMessageStartingWith("d.json: at $: not valid JSON");
    }
}
