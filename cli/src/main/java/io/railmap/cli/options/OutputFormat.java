package io.railmap.cli.options;

import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Objects;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.Messages;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --json} and {@code --format text|json}: the one output-format option of every command that prints
 * text for people or JSON for scripts (lldpcli's global {@code -f}). {@code --json} is {@code --format json}.
 *
 * <p>A command declares it with what its JSON is, and that becomes {@code --json}'s help:
 * <pre>
 * &#64;Mixin
 * OutputFormat format = new OutputFormat("Print the findings as JSON.");
 * </pre>
 * picocli keeps an option's description in its annotation, one for every command; the command's own
 * sentence reaches the help (and the man page) as the command's resource for the key {@code json}
 * ({@link #describe}), so a command that sets a resource bundle of its own must carry that key itself.
 */
public final class OutputFormat {
    /**
     * What {@code --format} names; {@link #wireName()} is the name on the command line. {@code railmap rails}
     * writes the rail-table format of that name ({@link io.railmap.matrix.emit.Formats#RAIL_TABLES}).
     */
    public enum Kind {
        /** For people: the command's text. */
        TEXT,
        /** For scripts: the command's JSON. */
        JSON;

        /** @return the name on the command line, {@code "text"} */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String jsonHelp;

    // the description is the command's (describe); this one is never shown
    @Option(names = "--json", description = "Print JSON (as --format json).")
    boolean json;

    @Option(names = "--format", paramLabel = "text|json", converter = KindConverter.class, completionCandidates = KindNames.class,
            description = "text for people, json for scripts (as --json). Default: text.")
    Kind format;

    /**
     * The only constructor: picocli cannot make one itself, so a command that declares the mixin without
     * its help fails when its command line is built.
     *
     * @param jsonHelp {@code --json}'s help in this command: what its JSON holds, one sentence or two
     */
    public OutputFormat(String jsonHelp) {
        this.jsonHelp = Objects.requireNonNull(jsonHelp, "jsonHelp");
    }

    /** @return {@code --json}'s help in the command that declared this */
    public String jsonHelp() {
        return jsonHelp;
    }

    /**
     * @return what was asked for: {@link Kind#TEXT} unless {@code --json} or {@code --format json}
     * @throws IllegalArgumentException when {@code --json} and {@code --format text} are both given
     */
    public Kind kind() {
        if (json && format == Kind.TEXT) {
            throw new IllegalArgumentException("--json and --format text ask for two outputs: give one");
        }
        return json ? Kind.JSON : format == null ? Kind.TEXT : format;
    }

    /** @return true when JSON was asked for ({@link #kind()}) */
    public boolean json() {
        return kind() == Kind.JSON;
    }

    /** Called by picocli with the command that declares this: gives its {@code --json} this one's help. */
    @Spec(Spec.Target.MIXEE)
    void describe(CommandSpec command) {
        command.usageMessage().messages(new Messages(command, new ListResourceBundle() {
            @Override
            protected Object[][] getContents() {
                return new Object[][] {{"json", jsonHelp}};
            }
        }));
    }

    /** Reads {@code --format} by a {@link Kind#wireName()}, any case. */
    static final class KindConverter implements ITypeConverter<Kind> {
        @Override
        public Kind convert(String value) {
            return Arrays.stream(Kind.values()).filter(k -> k.wireName().equalsIgnoreCase(value.strip())).findFirst()
                    .orElseThrow(() -> new TypeConversionException("'" + Names.escape(value, 80) + "' is not an output format: give one of "
                            + String.join(", ", new KindNames())));
        }
    }

    /** The kinds' names, for {@code --format}'s shell completion. */
    static final class KindNames extends ArrayList<String> {
        KindNames() {
            super(Arrays.stream(Kind.values()).map(Kind::wireName).toList());
        }
    }
}
