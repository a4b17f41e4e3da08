package io.railmap.dist;

import io.railmap.cli.Railmap;
import io.railmap.daemon.Railmapd;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes the man pages from the picocli models, so that they say what {@code --help} says: {@code railmap(1)},
 * one page per subcommand ({@code railmap-matrix(1)}, {@code railmap-lab-up(1)}, ...) and {@code railmapd(8)}.
 * picocli-codegen's {@link ManPageGenerator#writeSingleManPage} writes each page as AsciiDoc (doctype manpage);
 * Asciidoctor's {@code manpage} converter turns it into roff; the page is stored gzipped, as Debian policy
 * (12.1) wants and as man-db and mandoc read it.
 *
 * <p>railmap's model is the one {@link Railmap#commandLine} builds (with the exit codes in every footer);
 * railmapd's is its annotations. railmapd is a daemon, so its page is in section 8: its title is rewritten
 * from picocli's fixed {@code (1)}. The footers (formats, examples, exit codes), which picocli-codegen
 * leaves out without a footer heading, become sections of their own ({@link #sections}).
 *
 * <p>Errors: any I/O error or a conversion that yields no roff ends the build step with an exception.
 */
public final class ManPages {
    private ManPages() {
    }

    /**
     * @param args the output directory (replaced); pages go to {@code man1/} and {@code man8/} under it,
     *             AsciiDoc sources to {@code adoc/}
     * @throws IOException when a page cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Directories.delete(out);
        PrintWriter quiet = new PrintWriter(Writer.nullWriter());
        List<Page> pages = new ArrayList<>();
        collect(Railmap.commandLine(quiet, quiet).getCommandSpec(), 1, pages);
        collect(new CommandLine(new Railmapd()).getCommandSpec(), 8, pages);
        try (Asciidoctor asciidoctor = Asciidoctor.Factory.create()) {
            Options options = Options.builder().backend("manpage").standalone(true).safe(SafeMode.SAFE).build();
            for (Page page : pages) {
                Path adoc = Files.createDirectories(out.resolve("adoc")).resolve(page.name() + ".adoc");
                Files.writeString(adoc, page.adoc());
                String roff = asciidoctor.convert(page.adoc(), options);
                if (roff == null || !roff.contains(".TH ")) {
                    throw new IOException("Asciidoctor made no man page of " + adoc);
                }
                Path file = Files.createDirectories(out.resolve("man" + page.section())).resolve(page.name() + "." + page.section() + ".gz");
                try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(file))) {
                    gz.write(roff.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        System.out.println("man pages: " + pages.size() + " in " + out);
    }

    /** One page: {@code railmap-lab-up} in section 1, as AsciiDoc. */
    private record Page(String name, int section, String adoc) {
    }

    /** What picocli-codegen writes for a footer without a heading: nothing. */
    private static final String NO_FOOTER = "// tag::picocli-generated-man-section-footer[]\n// end::picocli-generated-man-section-footer[]\n";

    /** The command's page, then its subcommands' (not the hidden ones), depth first. */
    private static void collect(CommandSpec spec, int section, List<Page> pages) {
        // as --help shows it, before picocli-codegen gives the command line its AsciiDoc colour scheme
        String footer = spec.commandLine().getHelp().footer();
        StringWriter adoc = new StringWriter();
        try (PrintWriter pw = new PrintWriter(adoc)) {
            ManPageGenerator.writeSingleManPage(pw, spec);
        }
        String name = spec.qualifiedName("-");
        String text = adoc.toString().replace("\r\n", "\n");
        String title = "= " + name + "(1)";
        if (!text.contains(title) || !text.contains(NO_FOOTER)) {
            throw new IllegalStateException("picocli-codegen wrote no title " + title + " or a footer of its own for " + name
                    + ": revisit ManPages");
        }
        // a subcommand has no version of its own: its page names the root command's ("railmap 0.1.0")
        String version = spec.root().version().length == 0 ? "" : spec.root().version()[0].replace(':', ' ');
        text = text.replace(title, "= " + name + "(" + section + ")").replace(NO_FOOTER, sections(footer))
                .replace(":revnumber: \n", ":revnumber: " + version + "\n").replace(":mansource: \n", ":mansource: " + version + "\n");
        pages.add(new Page(name, section, text));
        // an alias maps to the same subcommand again
        for (CommandLine sub : new LinkedHashSet<>(spec.subcommands().values())) {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                collect(sub.getCommandSpec(), section, pages);
            }
        }
    }

    /**
     * railmap's footers (formats, examples, exit codes: picocli-codegen leaves out a footer without a
     * heading) as sections of the page: each paragraph of the footer whose first line is a title
     * ({@code Examples:}) opens a section of that name (EXAMPLES), any other is a paragraph of the
     * current one (NOTES before the first title); the text stays as {@code --help} shows it, in a
     * literal block.
     */
    static String sections(String footer) {
        StringBuilder adoc = new StringBuilder();
        boolean inSection = false;
        for (String paragraph : footer.strip().split("\n\\s*\n")) {
            List<String> lines = new ArrayList<>(paragraph.lines().toList());
            if (lines.isEmpty() || lines.stream().allMatch(String::isBlank)) {
                continue;
            }
            if (lines.get(0).matches("[A-Z][^:]{0,40}:")) {
                adoc.append("== ").append(lines.remove(0).replaceFirst(":$", "")).append("\n\n");
                inSection = true;
            } else if (!inSection) {
                adoc.append("== Notes\n\n");
                inSection = true;
            }
            if (!lines.isEmpty()) {
                adoc.append("....\n").append(String.join("\n", lines)).append("\n....\n\n");
            }
        }
        return adoc.toString();
    }
}
