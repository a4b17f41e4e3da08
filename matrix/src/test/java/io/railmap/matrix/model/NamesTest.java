package io.railmap.matrix.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamesTest {
    private static final long BASE_SEED = 0x6e61_6d65L;
    private static final int RUNS = 2000;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            newline and carriage return | 'a\\nb\\rc'
            tab                         | 'a\\tb'
            ESC of a colour sequence    | '\\x1b[31mred'
            NUL and DEL                 | '\\x00\\x7f'
            C1 control (NEL, CSI)       | '\\x85\\x9b'
            right-to-left override      | 'abc\\u202edcba'
            bidi isolates               | '\\u2066x\\u2069'
            zero-width joiner and BOM   | 'a\\u200db\\ufeff'
            line separator              | 'a\\u2028b'
            tag character (U+E0001)     | 'a\\U000e0001'
            backslash and quote         | 'a\\\\b\\"c'
            """)
    void everyHiddenCharacterBecomesAVisibleEscape(String what, String escaped) {
        String raw = unescape(escaped);

        assertThat(Names.escape(raw)).isEqualTo(escaped);
    }

    @Test
    void aLoneSurrogateIsEscaped() {
        assertThat(Names.escape("a\ud800b")).isEqualTo("a\\ud800b");
    }

    @Test
    void printableTextIsShownAsItIs() {
        assertThat(Names.escape("Mac Studio (2)")).isEqualTo("Mac Studio (2)");
        assertThat(Names.escape("Ünïcødé 名前 🚀")).isEqualTo("Ünïcødé 名前 🚀");
        assertThat(Names.escape(null)).isEqualTo("null");
    }

    @Test
    void longTextIsCutAfterSixtyFourCharactersSayingHowManyMore() {
        String tenMegabytes = "x".repeat(10_000_000);

        assertThat(Names.escape(tenMegabytes)).isEqualTo("x".repeat(64) + "…(9999936 more)");
        assertThat(Names.escape("y".repeat(64))).isEqualTo("y".repeat(64));
        // characters, not UTF-16 units: an emoji is never cut in half
        assertThat(Names.escape("🚀".repeat(70))).isEqualTo("🚀".repeat(64) + "…(6 more)");
        assertThat(Names.escape("abcdef", 3)).isEqualTo("abc…(3 more)");
    }

    /** Seeded: the escape of any text is one line of visible characters, bounded, and reads back to the text. */
    @Test
    void anyTextEscapesToABoundedVisibleLineThatReadsBack() {
        for (int run = 0; run < RUNS; run++) {
            long seed = BASE_SEED + run;
            String text = randomText(new Random(seed));
            String shown = Names.escape(text);
            try {
                assertThat(shown.codePoints()).noneMatch(c -> Character.getType(c) == Character.CONTROL
                        || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.SURROGATE
                        || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR);
                // at most 10 output characters per input character, plus the "…(N more)" tail
                assertThat(shown.length()).isLessThanOrEqualTo(10 * Names.SHOWN_CHARS + 20);
                if (text.codePointCount(0, text.length()) <= Names.SHOWN_CHARS) {
                    assertThat(unescape(shown)).isEqualTo(text);
                } else {
                    assertThat(shown).contains("…(");
                }
            } catch (AssertionError e) {
                fail("seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    @Test
    void aNameMayHoldSixtyFourBytesOfUtf8() {
        assertThat(Names.node("node", "n".repeat(64))).hasSize(64);
        assertThatThrownBy(() -> Names.node("node", "n".repeat(65)))
                .hasMessage("node name \"" + "n".repeat(64) + "…(1 more)\" is 65 bytes of UTF-8, over 64");
        // 22 characters of 3 bytes each: 66 bytes
        assertThatThrownBy(() -> Names.plain("netdev", "名".repeat(22))).hasMessageContaining("is 66 bytes of UTF-8, over 64");
    }

    @Test
    void aTenMegabyteNameIsRefusedWithAShortMessage() {
        String huge = "a".repeat(10_000_000);

        assertThatThrownBy(() -> Names.node("--node", huge))
                .hasMessage("--node name \"" + "a".repeat(64) + "…(9999936 more)\" is 10000000 bytes of UTF-8, over 64");
    }

    @ParameterizedTest
    @CsvSource({"'a\nb'", "'a\u001b[2Jb'", "'a\u202eb'", "'a\u200bb'", "'a\u0085b'", "'a\u00a0b'", "'a b'"})
    void aNameWithAnInvisibleOrSpaceCharacterIsRefusedAndShownEscaped(String name) {
        assertThatThrownBy(() -> Names.plain("port", name))
                .hasMessageStartingWith("port name \"" + Names.escape(name) + "\" contains")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n", "\u001b", "\u202e", "\u200b", "\u0085"));
    }

    @Test
    void aPrintableValueMayHoldSpacesButNoLineBreak() {
        assertThat(Names.printable("path", "/etc/rail map/devices.json")).isEqualTo("/etc/rail map/devices.json");
        assertThatThrownBy(() -> Names.printable("path", "/tmp/x\nMLX_RANK=9"))
                .hasMessage("path \"/tmp/x\\nMLX_RANK=9\" holds a control or invisible character");
    }

    @Test
    void listsOfNodesNameTheBadEntryEscaped() {
        assertThatThrownBy(() -> Names.nodeList("--hosts", "a,\u001b]0;x\u0007,b"))
                .hasMessage("--hosts name \"\\x1b]0;x\\x07\" contains a control or invisible character");
    }

    private static String randomText(Random random) {
        int length = random.nextInt(4) == 0 ? 60 + random.nextInt(40) : random.nextInt(20);
        StringBuilder text = new StringBuilder();
        int[] pool = {'a', 'Z', '0', ' ', '\\', '"', '\n', '\r', '\t', 0x1b, 0, 0x7f, 0x85, 0x9f, 0xa0, 0x202e, 0x2066, 0x200b,
            0xfeff, 0x2028, 0xe0001, 0x1f680, 0x540d, 0xd800, 0xdc00, 'x', 'u', 'U'};
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(pool[random.nextInt(pool.length)]);
        }
        return text.toString();
    }

    /** The inverse of {@link Names#escape} on uncut text: reads the escapes of n, r, t, backslash, quote, xHH, uHHHH and UHHHHHHHH. */
    private static String unescape(String shown) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = shown.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'x' -> {
                    out.appendCodePoint(Integer.parseInt(shown.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                case 'u' -> {
                    out.append((char) Integer.parseInt(shown.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                case 'U' -> {
                    out.appendCodePoint(Integer.parseInt(shown.substring(i + 1, i + 9), 16));
                    i += 8;
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }
}
