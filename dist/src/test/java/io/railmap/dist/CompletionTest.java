package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railmap.cli.Railmap;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The completion scripts the build wrote (Completions), run by the shells: bash completes what a
 * user types through the function bash-completion would call; zsh reads the zsh files.
 */
class CompletionTest {
    private static final Path COMPLETION = Path.of(System.getProperty("railmap.target")).resolve("completion");

    /** What bash offers after {@code line} (the word being completed is its last, possibly empty). */
    private static List<String> complete(String command, String line) throws Exception {
        String script = String.join("\n",
                "source \"$SCRIPT\" 2>/dev/null",
                "read -ra COMP_WORDS <<< \"$LINE\"",
                "case $LINE in *' ') COMP_WORDS+=('') ;; esac",
                "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))",
                "COMP_LINE=$LINE; COMP_POINT=${#LINE}",
                "_complete_" + command + " 2>/dev/null",
                "printf '%s\\n' \"${COMPREPLY[@]}\"");
        Commands.Result r = Commands.run(COMPLETION, Map.of("SCRIPT", COMPLETION.resolve(command + ".bash").toString(), "LINE", line),
                30, "bash", "-c", script);
        assertThat(r.code()).as(r.out()).isZero();
        return r.out().lines().filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void bashCompletesCommandsSubcommandsAndOptions() throws Exception {
        Optional<String> why = Tools.missing("apt-get install bash", "bash");
        assumeTrue(why.isEmpty(), why.orElse(""));
        assertThat(complete("railmap", "railmap ma")).containsExactly("matrix");
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        var lab = Railmap.commandLine(quiet, quiet).getSubcommands().get("lab").getSubcommands().keySet();
        assertThat(complete("railmap", "railmap lab ")).containsExactlyInAnyOrderElementsOf(lab);
        assertThat(complete("railmap", "railmap matrix --for")).containsExactly("--format");
        assertThat(complete("railmapd", "railmapd --cluster-k")).containsExactlyInAnyOrder("--cluster-key", "--cluster-key-file");
    }

    @Test
    void theZshFilesAreFunctionsForTheirCommandThatZshReads() throws Exception {
        for (String command : List.of("railmap", "railmapd")) {
            String zsh = Files.readString(COMPLETION.resolve("_" + command));
            assertThat(zsh).startsWith("#compdef " + command + "\n").contains("bashcompinit", "function _complete_" + command + "()")
                    .endsWith("_bash_complete -F _complete_" + command + " -o default\n")
                    .as("no alias: zsh would not apply it inside the function").doesNotContain("alias compopt");
            if (Commands.onPath("zsh")) {
                Commands.Result r = Commands.run(COMPLETION, Map.of(), 30, "zsh", "-n", COMPLETION.resolve("_" + command).toString());
                assertThat(r.code()).as(r.out()).isZero();
            }
        }
    }

    @Test
    void aPicocliScriptOfAnotherShapeStopsTheBuild() {
        assertThatThrownBy(() -> Completions.zsh("railmap", "#!/usr/bin/env bash\necho nothing here\n"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("revisit Completions.zsh");
    }
}
