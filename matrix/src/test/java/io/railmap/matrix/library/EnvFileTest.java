package io.railmap.matrix.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@link EnvFile} reads as a POSIX shell would, and what it refuses rather than guess. */
class EnvFileTest {
    @Test
    void readsCommentsBlankLinesExportQuotesAndTrailingCommentsAsAShellWould() {
        Map<String, String> vars = EnvFile.parse("f", "# nccl\n\n  export NCCL_IB_HCA==mlx5_0:1:0\r\nUCX_NET_DEVICES='mlx5_0:1 x'\n"
                + "A=\"a\"'b'c  # note\nB=\nA=last\n");

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
                "env file f line 2 column 3: the control character 0x00 is not text");
        // a C1 control (U+0092 here, found by EnvFileFuzzTest) is a control character too
        assertThatThrownBy(() -> EnvFile.parse("f", "A='x\u0092'\n")).hasMessageStartingWith(
                "env file f line 1 column 5: the control character 0x92 is not text");
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
        assertThat(EnvFile.parse("f", "UCX_NET_DEVICES='mlx5_[0-3]:1'\nA=\"~/x\"\nB=a~b\nC='*'\n"))
                .containsExactly(Map.entry("UCX_NET_DEVICES", "mlx5_[0-3]:1"), Map.entry("A", "~/x"), Map.entry("B", "a~b"),
                        Map.entry("C", "*"));
    }
}
