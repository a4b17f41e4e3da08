package io.railmap.discovery.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.model.Names;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class QuoteTest {

    @Test
    void controlCharactersAreShownAsEscapes() {
        assertThat(Quote.value("a\nb\tc\u001b[2J\u0000\u007f\"\\")).isEqualTo("\"a\\nb\\tc\\x1b[2J\\x00\\x7f\\\"\\\\\"");
        assertThat(Quote.value("\u0085\u202etxt.exe\u2066")).isEqualTo("\"\\x85\\u202etxt.exe\\u2066\"");
    }

    @Test
    void pairedSurrogatesStayAndLoneHalvesAreEscaped() {
        assertThat(Quote.value("Jo's \uD83C\uDF4E Mac")).isEqualTo("\"Jo's \uD83C\uDF4E Mac\"");
        assertThat(Quote.value("a\uD83Cb")).isEqualTo("\"a\\ud83cb\"");
        assertThat(Names.hasHidden("Jo's \uD83C\uDF4E Mac")).isFalse();
        assertThat(Names.hasHidden("a\uDF4E")).isTrue();
    }

    @Test
    void longValuesAreCutSayingHowMuchIsLeftOut() {
        assertThat(Quote.value("x".repeat(10 << 20))).isEqualTo("\"" + "x".repeat(64) + "…(" + ((10 << 20) - 64) + " more)\"");
        assertThat(Quote.value("x".repeat(64))).isEqualTo("\"" + "x".repeat(64) + "\"");
        assertThat(Quote.path(Path.of("/sys/class/net/e\nth0"))).isEqualTo("/sys/class/net/e\\nth0");
    }
}
