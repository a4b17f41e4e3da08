package io.railmap.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.railmap.cli.Railmap;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The man pages the build wrote (ManPages): a page per command of the model, in roff that man renders without a warning. */
class ManPagesTest {
    private static final Path MAN = Path.of(System.getProperty("railmap.target")).resolve("man");

    private static String roff(Path page) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(page))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** railmap and every subcommand, as railmap-lab-up. */
    private static List<CommandSpec> commands() {
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        return Railmap.tree(Railmap.commandLine(quiet, quiet).getCommandSpec());
    }

    @Test
    void everyRailmapCommandHasAPageInSection1WithItsOptionsAndTheExitCodes() throws IOException {
        List<CommandSpec> commands = commands();
        assertThat(commands).hasSizeGreaterThan(20);
        for (CommandSpec spec : commands) {
            String name = spec.qualifiedName("-");
            Path page = MAN.resolve("man1").resolve(name + ".1.gz");
            assertThat(page).as("the page of " + spec.qualifiedName()).isRegularFile();
            String roff = roff(page);
            assertThat(roff).contains(".TH \"" + name.toUpperCase().replace("-", "\\-") + "\" \"1\"")
                    .as(name + " names the version").contains("\"railmap " + ReleaseArchiveTest.VERSION.replace("-", "\\-") + "\"");
            for (CommandLine.Model.OptionSpec option : spec.options()) {
                assertThat(roff).as(name + " documents " + option.longestName()).contains(option.longestName().replace("-", "\\-"));
            }
            if (!name.equals("railmap-help")) {
                assertThat(roff).as(name + " lists the exit codes").contains(".SH \"EXIT CODES\"", "internal error (a bug: please report it)");
            }
        }
    }

    @Test
    void railmapdHasAPageInSection8() throws IOException {
        String roff = roff(MAN.resolve("man8/railmapd.8.gz"));
        assertThat(roff).contains(".TH \"RAILMAPD\" \"8\"", "cluster\\-key\\-file", "Exit codes");
        try (var pages = Files.list(MAN.resolve("man8"))) {
            assertThat(pages).hasSize(1);
        }
    }

    @Test
    void manRendersEveryPageWithoutAWarning() throws Exception {
        Optional<String> why = Tools.missing("apt-get install man-db", "man");
        assumeTrue(why.isEmpty(), why.orElse(""));
        for (String section : List.of("man1", "man8")) {
            try (var pages = Files.list(MAN.resolve(section))) {
                for (Path page : pages.toList()) {
                    // output to /dev/null: what is left is what man and groff complain about
                    Commands.Result r = Commands.run(MAN, Map.of("MANWIDTH", "80"), 60, "sh", "-c",
                            "man --warnings -l \"$0\" > /dev/null", page.toString());
                    assertThat(r.code()).as(page + ": " + r.out()).isZero();
                    assertThat(r.out()).as(page.toString()).isEmpty();
                }
            }
        }
    }
}
