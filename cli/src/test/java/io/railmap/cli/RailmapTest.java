package io.railmap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The root command and the lab group ({@link Railmap}): run alone, they name their commands as the command tree has them. */
class RailmapTest {
    @Test
    void railmapAndLabAloneNameEveryCommandOfTheirs() {
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        CommandLine root = Railmap.commandLine(quiet, quiet);
        check(Run.of(), root);
        check(Run.of("lab"), root.getSubcommands().get("lab"));
        assertThat(Run.of("lab").err()).contains("name a lab command: up, status, exec, env, cable, kill, start, lldpd or down");
    }

    private static void check(Run run, CommandLine group) {
        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        List<String> names = group.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList();
        assertThat(names).hasSizeGreaterThan(5);
        String last = names.get(names.size() - 1);
        assertThat(run.err()).contains(String.join(", ", names.subList(0, names.size() - 1)) + " or " + last + "\n");
    }
}
