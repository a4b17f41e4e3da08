package io.railmap.matrix.emit;

import io.railmap.matrix.model.Names;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Every format railmap writes a plan as, registered once: the CLI and the API take their lists from here. */
public final class Formats {
    /** The formats, in the order help lists them; the first is the default. */
    public static final List<Format> ALL = List.of(new DevicesFile(), new JacclEnv(), new LaunchHostfile(), PlanJson.FORMAT,
            new Dot(), new RingLaunchHostfile(), new RingHostsFile());

    /** The rail table's formats ({@code railmap rails --format NAME}), in the order help lists them; the first is the default. */
    public static final List<RailTableFormat> RAIL_TABLES = List.of(RailTableText.FORMAT, RailTableJson.FORMAT);

    private Formats() {
    }

    /** @return the format written when none is named: the jaccl devices file */
    public static Format standard() {
        return ALL.get(0);
    }

    /** @return the formats' names, in order, for help and completion */
    public static List<String> names() {
        return ALL.stream().map(Format::name).toList();
    }

    /**
     * @param name a format's name, any case ({@code "jaccl"})
     * @return the format
     * @throws IllegalArgumentException naming the known formats when none has that name
     */
    public static Format named(String name) {
        return ALL.stream().filter(f -> f.name().equalsIgnoreCase(name == null ? "" : name.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown format \"" + Names.escape(name, 80) + "\": give one of "
                        + String.join(", ", names())));
    }

    /**
     * @param format the format asked for
     * @param names  how the caller names an option ({@link FormatOption#flags()} or {@link FormatOption#parameters()})
     * @param given  whether a name was given
     * @throws IllegalArgumentException naming the first option given that the format does not read, and
     *                                  the formats that read it
     */
    public static void requireRead(Format format, Function<FormatOption, List<String>> names, Predicate<String> given) {
        for (FormatOption option : FormatOption.values()) {
            if (format.reads().contains(option)) {
                continue;
            }
            for (String name : names.apply(option)) {
                if (given.test(name)) {
                    throw new IllegalArgumentException(name + " does not apply to format " + format.name() + ": only "
                            + ALL.stream().filter(f -> f.reads().contains(option)).map(Format::name).collect(Collectors.joining(", "))
                            + " read it; leave it out");
                }
            }
        }
    }
}
