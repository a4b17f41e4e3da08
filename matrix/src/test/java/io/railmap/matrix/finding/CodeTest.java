package io.railmap.matrix.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every finding code is documented: scripts match on the wire names, and people look them up in docs/. */
class CodeTest {
    @Test
    void everyCodeIsInTheDocs() throws IOException {
        String docs;
        try (Stream<Path> files = Files.list(Path.of("../docs"))) {
            docs = files.filter(p -> p.toString().endsWith(".md")).sorted().map(p -> {
                try {
                    return Files.readString(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(Collectors.joining("\n"));
        }
        assertThat(Arrays.stream(Code.values()).map(Code::wireName).filter(name -> !docs.contains("`" + name + "`")))
                .as("codes no page of docs/ names in backticks").isEmpty();
    }

    @Test
    void wireNamesAreDistinct() {
        assertThat(Arrays.stream(Code.values()).map(Code::wireName)).doesNotHaveDuplicates();
    }
}
