package io.railmap.dist;

import io.railmap.cli.Railmap;
import io.railmap.daemon.Railmapd;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Writes the shell completion scripts from the picocli models: {@code railmap.bash} and
 * {@code railmapd.bash} (picocli's {@link AutoComplete#bash}: commands, subcommands, options and enum
 * values), and {@code _railmap}, {@code _railmapd} for zsh, which load the same functions through zsh's
 * {@code bashcompinit}.
 *
 * <p>Where they go: Debian's bash-completion loads {@code /usr/share/bash-completion/completions/NAME}
 * on the first Tab after NAME; zsh's {@code compinit} loads {@code _NAME} files found in {@code fpath}
 * ({@code /usr/share/zsh/vendor-completions} on Debian, Homebrew's {@code share/zsh/site-functions}),
 * each a function run on every Tab after the command its {@code #compdef} line names.
 */
public final class Completions {
    private Completions() {
    }

    /**
     * @param args the output directory
     * @throws IOException when a script cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Files.createDirectories(Path.of(args[0]));
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        write(out, "railmap", Railmap.commandLine(quiet, quiet));
        write(out, "railmapd", new CommandLine(new Railmapd()));
        System.out.println("completion scripts: bash and zsh for railmap and railmapd in " + out);
    }

    private static void write(Path out, String name, CommandLine commandLine) throws IOException {
        String bash = AutoComplete.bash(name, commandLine);
        Files.writeString(out.resolve(name + ".bash"), bash);
        Files.writeString(out.resolve("_" + name), zsh(name, bash));
    }

    /**
     * The zsh file: on its first run (the first Tab after NAME) it defines picocli's bash functions
     * under zsh's bash emulation ({@code bashcompinit}); their {@code complete} line registers them
     * for later Tabs (bashcompinit's {@code complete} calls {@code compdef}); then it answers this
     * Tab through them, as that registration would. picocli's script opens with set-up for when it
     * is sourced (shell options, {@code compinit}, an alias that zsh would not apply inside this
     * function): that part is left out.
     *
     * @throws IllegalStateException when picocli's script no longer has the shape this relies on
     */
    static String zsh(String name, String bash) {
        String function = "_complete_" + name;
        String registration = "complete -F " + function + " -o default " + name;
        int start = bash.indexOf("\nfunction ");
        if (start < 0 || !bash.contains("function " + function + "()") || !bash.contains(registration)) {
            throw new IllegalStateException("picocli's bash script for " + name + " changed shape (no 'function', no " + function
                    + "() or no '" + registration + "'): revisit Completions.zsh");
        }
        return "#compdef " + name + "\n"
                + "# zsh completion for " + name + ": picocli's bash completion (" + name + ".bash) run by zsh's bashcompinit.\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + bash.substring(start + 1)
                + "\n_bash_complete -F " + function + " -o default\n";
    }
}
