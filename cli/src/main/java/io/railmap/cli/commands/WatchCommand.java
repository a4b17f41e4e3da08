package io.railmap.cli.commands;

import io.railmap.cli.ExitCodes;
import io.railmap.cli.client.EventFollower;
import io.railmap.cli.options.DaemonTarget;
import io.railmap.cli.options.OutputFormat;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.model.Names;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code railmap watch}: a railmapd's changes as they happen ({@code GET /v1/events}), one line each. */
@Command(mixinStandardHelpOptions = true, name = "watch", sortOptions = false,
        description = {"Print a railmapd's changes as they happen, one line each: cables added and lost (both ends named), ports up "
                + "and down, members joined and left, records changed, findings raised and cleared, agreement reached and lost. "
                + "After a dropped stream it reconnects every second and resumes after the last event it printed; when the daemon "
                + "no longer holds what was missed, a 'missed' line says so. Runs until interrupted (Ctrl-C), or until --count "
                + "events were printed (exit 0). Exit 4 when the daemon cannot be reached at the start."},
        footer = {"", "Examples:", "  railmap watch", "  railmap watch --lab a --json",
            "  railmap watch --type cable-lost --count 1      (waits for the next pulled cable)",
            "  railmap watch --json --after 1f2e3d4c-41      (resumes after an event seen before)"})
public final class WatchCommand implements Callable<Integer> {
    /** The types {@code --type} takes: every change, and {@code missed}. */
    static final List<String> TYPES = Stream.concat(Arrays.stream(ChangeType.values()).map(ChangeType::wireName), Stream.of("missed")).toList();

    @Spec
    CommandSpec spec;

    @Mixin
    DaemonTarget target;

    @Mixin
    OutputFormat format = new OutputFormat("Print each event's data, one JSON object per line: {\"id\", \"type\", \"subjects\", \"message\"}.");

    @Option(names = "--type", paramLabel = "TYPE[,TYPE...]", completionCandidates = TypeNames.class,
            description = "Print only these types (the others are read and dropped): ${COMPLETION-CANDIDATES}.")
    String types;

    @Option(names = "--after", paramLabel = "ID",
            description = "Resume after the event with this id (the \"id\" of --json): print what the daemon still holds after it first, "
                    + "or a 'missed' line when it holds none of it. Default: from now on.")
    String after;

    @Option(names = "--count", paramLabel = "N", description = "Exit 0 after N events were printed (N >= 1). Default: run until interrupted.")
    Integer count;

    @Override
    public Integer call() throws InterruptedException {
        Set<String> only = types == null ? Set.copyOf(TYPES) : parseTypes(types);
        if (count != null && count < 1) {
            throw new IllegalArgumentException("--count must be at least 1 (got " + count + ")");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean json = format.json();
        int printed = 0;
        if (after != null) {
            Names.printable("--after", after);
        }
        try (EventFollower follower = new EventFollower(target.url(), Optional.ofNullable(after))) {
            while (count == null || printed < count) {
                Optional<EventFollower.Item> item = follower.next(1_000);
                if (item.isEmpty()) {
                    continue;
                }
                if (item.get() instanceof EventFollower.Notice notice) {
                    err.println("railmap: " + notice.sentence());
                    err.flush();
                } else if (item.get() instanceof EventFollower.Event event && only.contains(event.type())) {
                    out.println(json ? event.data() : event.type() + ": " + Names.escape(event.message(), 4096));
                    out.flush();
                    printed++;
                }
            }
        }
        return ExitCodes.OK;
    }

    private static Set<String> parseTypes(String value) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : value.split(",", -1)) {
            String type = t.strip();
            if (!TYPES.contains(type)) {
                throw new IllegalArgumentException("--type \"" + Names.escape(type, 80) + "\" is not an event type: give "
                        + String.join(", ", TYPES));
            }
            out.add(type);
        }
        return out;
    }

    /** {@link #TYPES}, for {@code --type}'s help and shell completion. */
    static final class TypeNames extends ArrayList<String> {
        TypeNames() {
            super(TYPES);
        }
    }
}
