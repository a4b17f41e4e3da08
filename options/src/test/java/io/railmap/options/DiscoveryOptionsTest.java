package io.railmap.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.discovery.sources.Sources;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The discovery flags and {@link Sources.Settings} derive from each other: every setting a source
 * reads has a flag, and every flag reaches a setting. A new source whose setting has no flag (or a
 * flag that {@link DiscoveryOptions#settings} forgets) fails here.
 */
class DiscoveryOptionsTest {
    @TempDir
    Path dir;

    @Test
    void everySettingHasAFlagAndEveryFlagASetting() throws Exception {
        Sources.Settings base = settings(List.of("--node", "base"));
        Set<String> fed = new TreeSet<>();
        Map<String, List<String>> unfeeding = new LinkedHashMap<>();
        for (OptionSpec option : new CommandLine(new DiscoveryOptions()).getCommandSpec().options()) {
            String flag = option.longestName();
            List<String> args = new ArrayList<>(List.of(flag, sample(option)));
            if (!flag.equals("--node")) {
                args.addAll(List.of("--node", "base"));
            }
            List<String> changed = changed(base, settings(args));
            if (changed.isEmpty()) {
                unfeeding.put(flag, changed);
            }
            fed.addAll(changed);
        }
        Set<String> components = new TreeSet<>();
        for (RecordComponent c : Sources.Settings.class.getRecordComponents()) {
            components.add(c.getName());
        }
        assertThat(unfeeding).as("flags that change no setting").isEmpty();
        assertThat(fed).as("settings that some flag sets").isEqualTo(components);
    }

    /** A value the flag takes that is not its default: an existing directory for a path, else a name that is also a glob. */
    private String sample(OptionSpec option) throws Exception {
        if (option.type() == Path.class) {
            return Files.createDirectories(dir.resolve(option.longestName().substring(2))).toString();
        }
        return "x1";
    }

    private static Sources.Settings settings(List<String> args) {
        DiscoveryOptions options = new DiscoveryOptions();
        new CommandLine(options).parseArgs(args.toArray(String[]::new));
        return options.settings(options.node());
    }

    private static List<String> changed(Sources.Settings a, Sources.Settings b) throws Exception {
        List<String> out = new ArrayList<>();
        for (RecordComponent c : Sources.Settings.class.getRecordComponents()) {
            if (!Objects.equals(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                out.add(c.getName());
            }
        }
        return out;
    }
}
