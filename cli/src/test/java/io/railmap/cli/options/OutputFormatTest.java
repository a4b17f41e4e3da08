package io.railmap.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.Railmap;
import io.railmap.cli.Run;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --json} and {@code --format text|json} ({@link OutputFormat}): one mixin for every command that prints JSON. */
class OutputFormatTest {
    private static final String LEAVES = "../examples/snapshots/two-leaves-swapped.json";
    private static final String RING = "../examples/snapshots/four-studios-ring.json";

    private static List<CommandSpec> commands() {
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        return Railmap.tree(Railmap.commandLine(quiet, quiet).getCommandSpec());
    }

    private static Optional<OutputFormat> mixin(CommandSpec spec) {
        return spec.mixins().values().stream().map(CommandSpec::userObject).filter(OutputFormat.class::isInstance)
                .map(OutputFormat.class::cast).findFirst();
    }

    @Test
    void everyCommandWithJsonOutputTakesItFromTheMixinWithItsOwnHelp() {
        List<String> withJson = new ArrayList<>();
        for (CommandSpec spec : commands()) {
            OptionSpec json = spec.findOption("--json");
            if (json == null) {
                assertThat(mixin(spec)).as(spec.qualifiedName()).isEmpty();
                continue;
            }
            withJson.add(spec.qualifiedName());
            Optional<OutputFormat> mixin = mixin(spec);
            assertThat(mixin).as(spec.qualifiedName() + " declares --json itself, not through OutputFormat").isPresent();
            assertThat(json.description()).as(spec.qualifiedName() + ": --json's help is the command's own")
                    .containsExactly(mixin.get().jsonHelp());
            assertThat(spec.findOption("--format").paramLabel()).isEqualTo("text|json");
        }
        assertThat(withJson).as("the commands whose --json scripts use").contains("railmap addresses", "railmap check", "railmap nodes", "railmap agree",
                "railmap env", "railmap watch", "railmap rails", "railmap ports", "railmap lab up", "railmap jobs");
    }

    @Test
    void formatJsonPrintsWhatJsonPrintsAndFormatTextWhatNoOptionPrints() {
        List<List<String>> commands = List.of(
                List.of("rails", "--snapshot", LEAVES),
                List.of("check", "--rails", "--snapshot", LEAVES),
                List.of("addresses", "--snapshot", RING),
                List.of("ports", "--snapshot", RING, "--node", "studio-a"),
                List.of("env", "--node", "gpu-01", "--for", "nccl", "--snapshot", LEAVES),
                List.of("jobs", "--snapshot", RING));
        for (List<String> command : commands) {
            Run json = run(command, "--json");
            assertThat(json.out()).as(String.join(" ", command)).startsWith("{");
            Run formatJson = run(command, "--format", "json");
            assertThat(formatJson).as(String.join(" ", command)).isEqualTo(json);
            assertThat(run(command, "--format", "text")).as(String.join(" ", command)).isEqualTo(run(command));
        }
    }

    @Test
    void jsonAndFormatTextTogetherAreAUsageError() {
        Run run = Run.of("rails", "--snapshot", LEAVES, "--json", "--format", "text");

        assertThat(run.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(run.err()).contains("--json and --format text ask for two outputs: give one");
        assertThat(Run.of("rails", "--snapshot", LEAVES, "--format", "yaml").err()).contains("'yaml' is not an output format: give one of text, json");
    }

    private static Run run(List<String> command, String... more) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of(more));
        return Run.of(args.toArray(String[]::new));
    }
}
