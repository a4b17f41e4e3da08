package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.finding.Code;
import io.railmap.matrix.finding.Severity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@link EnvFile} reads as a POSIX shell would, and what it refuses rather than guess. */
class EnvFileTest {
    @Test
    void readsCommentsBlankLinesExportQuotesAndTrailingCommentsAsAShellWould() {
        Map<String, String> vars = EnvFile.parse("f", "# nccl\n\n  export NCCL_IB_HCA==mlx5_0:1:0\nUCX_NET_DEVICES='mlx5_0:1 x'\n"
                + "A=\"a\"'b'c  # note\nB=\nA=last\n").variables();

        assertThat(vars).containsExactly(Map.entry("NCCL_IB_HCA", "=mlx5_0:1:0"), Map.entry("UCX_NET_DEVICES", "mlx5_0:1 x"),
                Map.entry("B", ""), Map.entry("A", "last"));
    }

    @Test
    void whatAShellWouldExpandOrSplitIsRefusedNamingLineAndColumn() {
        assertThatThrownBy(() -> EnvFile.parse("f", "A=1\nB='open\n")).hasMessage(
                "env file f line 2 column 3: the quote ' is not closed on this line (values span one line)");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=$HOME\n")).hasMessageStartingWith("env file f line 1 column 3: '$' unquoted is shell syntax");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=\"x`id`\"\n")).hasMessageStartingWith("env file f line 1 column 5: '`' inside double");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=a b\n")).hasMessageStartingWith("env file f line 1 column 5: unquoted whitespace");
        assertThatThrownBy(() -> EnvFile.parse("f", "\n1A=x\n")).hasMessageStartingWith("env file f line 2 column 1: expected KEY=VALUE");
        assertThatThrownBy(() -> EnvFile.parse("f", "just words\n")).hasMessageStartingWith("env file f line 1 column 1: expected KEY=VALUE");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=1\nB=\u0000\n")).hasMessageStartingWith(
                "env file f line 2 column 3: a NUL character makes this no text file");
        // a refusal after a hidden character names the column in the file, the hidden character counted
        assertThatThrownBy(() -> EnvFile.parse("f", "A=\u200b$HOME\n")).hasMessageStartingWith("env file f line 1 column 4: '$' unquoted");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=" + "x".repeat(EnvFile.MAX_LINE_CHARS) + "\n"))
                .hasMessageStartingWith("env file f line 1 column 4097: the line is longer than 4096 characters");
    }

    @Test
    void globCharactersAndATildeAShellWouldExpandAreRefusedUnlessQuoted() {
        // POSIX sh: * ? [ in an unquoted word are patterns (2.13); ~ starts a tilde-prefix at the start of
        // an assignment's value and after each unquoted ':' (2.6.1)
        for (String[] c : new String[][] {{"UCX_NET_DEVICES=mlx5_[0-3]:1", "22"}, {"A=mlx5_*", "8"}, {"A=x?", "4"},
                {"MLX_HOSTFILE=~/hosts.json", "14"}, {"A=x:~y", "5"}}) {
            assertThatThrownBy(() -> EnvFile.parse("f", "# x\n" + c[0] + "\n")).as(c[0])
                    .hasMessageStartingWith("env file f line 2 column " + c[1] + ": '")
                    .hasMessageContaining("unquoted is shell syntax").hasMessageContaining("quote the value");
        }
        assertThatThrownBy(() -> EnvFile.parse("f", "A=*\n")).hasMessageContaining("file names it matches");
        assertThatThrownBy(() -> EnvFile.parse("f", "A=~\n")).hasMessageContaining("home directory");
        assertThat(EnvFile.parse("f", "UCX_NET_DEVICES='mlx5_[0-3]:1'\nA=\"~/x\"\nB=a~b\nC='*'\n").variables())
                .containsExactly(Map.entry("UCX_NET_DEVICES", "mlx5_[0-3]:1"), Map.entry("A", "~/x"), Map.entry("B", "a~b"),
                        Map.entry("C", "*"));
    }

    /**
     * The file: CRLF line ends. dash's '.' (POSIX XCU 2.3: only a blank or a newline ends a
     * word) sets UCX_NET_DEVICES to "rdma_eth2:1,rdma_eth3:1\r"; systemd's EnvironmentFile= ends the line
     * at the CR. One error per line that sets a variable, naming the line and what each reader sets (the
     * value is read as the file shows it); a warning for the blank line (sh: "\r: not found"); none for
     * a comment.
     */
    @Test
    void aCrlfLineEndIsAnErrorNamingTheLineAndWhatTheShellSets() {
        EnvFile read = EnvFile.parse("f", "# written on Windows\r\n\r\nUCX_NET_DEVICES=rdma_eth2:1,rdma_eth3:1\r\nexport A='x'  # note\r\n");

        assertThat(read.variables()).containsExactly(Map.entry("UCX_NET_DEVICES", "rdma_eth2:1,rdma_eth3:1"), Map.entry("A", "x"));
        assertThat(read.findings()).hasSize(2);
        assertThat(read.findings().get(0).severity()).as("the blank line, which sh runs as a command named CR").isEqualTo(Severity.WARNING);
        assertThat(read.findings().get(0).message()).isEqualTo("line 2: a line that sets nothing ends in a carriage return (a CRLF line"
                + " end): sh's '.' reads no assignment there (it runs the line as a command); systemd's EnvironmentFile= ends the line"
                + " there. Save the file with LF line ends (dos2unix FILE)");
        assertThat(read.findings().get(1)).satisfies(f -> {
            assertThat(f.code()).isEqualTo(Code.INVISIBLE_CHARACTER);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.message()).startsWith("line 3: UCX_NET_DEVICES's line ends in a carriage return (a CRLF line end): sh's '.' keeps"
                    + " it, setting UCX_NET_DEVICES=\"rdma_eth2:1,rdma_eth3:1\\r\"").contains("systemd's EnvironmentFile= ends the line there",
                    "dos2unix").doesNotContain("\r");
        });
    }

    /**
     * Each character docs/env-files.md's rules name as hidden gives its finding where a reader takes the line
     * otherwise than it shows: a CR inside a value, another C0 control, DEL, a C1 control, a zero-width
     * space, a bidi control, a byte order mark before the key (the shell then reads no assignment), a CR
     * in a comment followed by text (systemd reads that text as a line). A CR that only ends a comment is none.
     */
    @Test
    void everyHiddenCharacterAShellOrSystemdReadsOtherwiseIsAFinding() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("A=a\rb\n", "line 1 column 4: A's line holds the character \\r a reader does not see: sh's '.' keeps it, setting A=\"a\\rb\"; systemd's EnvironmentFile= ends the line at the carriage return");
        expected.put("A='a\u0001'\n", "line 1 column 5: A's line holds the character \\x01 a reader does not see: sh's '.' keeps it, setting A=\"a\\x01\"; systemd's EnvironmentFile= ignores the assignment");
        expected.put("A=a\u007f\n", "line 1 column 4: A's line holds the character \\x7f");
        expected.put("A='x\u0092'\n", "line 1 column 5: A's line holds the character \\x92");
        expected.put("UCX_NET_DEVICES=mlx5_0:1\u200b\n", "line 1 column 25: UCX_NET_DEVICES's line holds the character \\u200b a reader does not see: sh's '.' keeps it, setting UCX_NET_DEVICES=\"mlx5_0:1\\u200b\"; systemd's EnvironmentFile= keeps it too");
        expected.put("A=\u202ex\u202c\n", "line 1 column 3: A's line holds 2 characters \\u202e \\u202c a reader does not see");
        expected.put("\ufeffNCCL_IB_HCA=mlx5_0\n", "line 1 column 1: NCCL_IB_HCA's line holds the character \\ufeff a reader does not see: sh's '.' reads no assignment there (it runs the line as a command)");
        expected.put("# a\rB=1\n", "line 1 column 4: a line that sets nothing holds the character \\r a reader does not see: sh's '.' ignores it; systemd's EnvironmentFile= ends the line at the carriage return");
        expected.forEach((text, message) -> assertThat(EnvFile.parse("f", text).findings()).as(text).singleElement()
                .satisfies(f -> assertThat(f.message()).startsWith(message).doesNotContain("\r", "\u200b", "\u202e")));
        assertThat(EnvFile.parse("f", "A=a\u200b\n").variables()).containsExactly(Map.entry("A", "a"));
        assertThat(EnvFile.parse("f", "# a comment\r\nA=1 # c\u200b\n").findings()).isEmpty();
    }
}
