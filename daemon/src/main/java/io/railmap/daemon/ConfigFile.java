package io.railmap.daemon;

import io.railmap.discovery.input.InputFile;
import io.railmap.discovery.input.InputKind;
import io.railmap.matrix.model.Names;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * railmapd's {@code --config FILE}: Java properties ({@link Properties#load(java.io.Reader)} syntax,
 * UTF-8) whose keys are the long flags without their dashes ({@code interfaces=en*},
 * {@code probe-interval-ms=250}); a flag on the command line wins over the file.
 *
 * <p>The file follows the rule of records: the file must be a regular text file of at most 64 KiB
 * ({@link InputFile}, {@link InputKind#CONFIG}); a key that is no flag ({@code interfacs}), a key given
 * twice, or {@code config} itself is an error naming the key (with the closest flag, when one is close).
 * Trailing whitespace of a value is dropped. The values are checked as the flags' are.
 *
 * @param file the file, as named
 * @param properties its keys and values
 */
record ConfigFile(Path file, Properties properties) {
    /**
     * @param file    the file
     * @param command the command line whose long options are the keys
     * @return the file's settings
     * @throws IllegalArgumentException with one line naming {@code --config}, the file and the problem
     */
    static ConfigFile read(Path file, CommandLine command) {
        String text = InputFile.read(file, InputKind.CONFIG);
        String name = "--config " + Names.escape(file.toString(), 256);
        List<String> repeated = new ArrayList<>();
        Properties properties = new Properties() {
            private static final long serialVersionUID = 1L;

            @Override
            public synchronized Object put(Object key, Object value) {
                if (containsKey(key)) {
                    repeated.add((String) key);
                }
                return super.put(key, ((String) value).stripTrailing());
            }
        };
        try {
            properties.load(new StringReader(text));
        } catch (IllegalArgumentException | IOException e) {
            throw new IllegalArgumentException(name + " is not a properties file: " + Names.escape(e.getMessage()));
        }
        if (!repeated.isEmpty()) {
            throw new IllegalArgumentException(name + " sets " + Names.escape(repeated.get(0)) + " twice; keep one line");
        }
        Set<String> keys = keys(command);
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.equals("config")) {
                throw new IllegalArgumentException(name + " sets config: a config file cannot name another one");
            }
            if (!keys.contains(key)) {
                throw new IllegalArgumentException(name + ": unknown key \"" + Names.escape(key) + "\"" + suggestion(command, key)
                        + "; the keys are the long flags without dashes: " + String.join(", ", keys));
            }
        }
        return new ConfigFile(file, properties);
    }

    /** @return the defaults picocli takes from the file */
    CommandLine.IDefaultValueProvider defaults() {
        return new CommandLine.PropertiesDefaultProvider(properties);
    }

    /** @return true when the file sets this flag ({@code --node}) */
    boolean sets(String flag) {
        return properties.containsKey(flag.replaceFirst("^-+", ""));
    }

    /** @return the long flags a config file may set, without their dashes, sorted */
    private static Set<String> keys(CommandLine command) {
        Set<String> keys = new TreeSet<>();
        for (OptionSpec option : command.getCommandSpec().options()) {
            if (!option.usageHelp() && !option.versionHelp() && !option.longestName().equals("--config")) {
                keys.add(option.longestName().replaceFirst("^-+", ""));
            }
        }
        return keys;
    }

    /** @return {@code " (did you mean interfaces?)"} from picocli's own suggestions, or nothing */
    private static String suggestion(CommandLine command, String key) {
        try {
            new CommandLine(command.getCommand().getClass()).parseArgs("--" + key);
        } catch (CommandLine.UnmatchedArgumentException e) {
            List<String> close = e.getSuggestions().stream().map(s -> s.replaceFirst("^-+", ""))
                    .filter(s -> !s.equals("config") && !s.equals("help") && !s.equals("version")).toList();
            if (!close.isEmpty()) {
                return " (did you mean " + String.join(" or ", close) + "?)";
            }
        } catch (CommandLine.ParameterException e) {
            // not an unknown option after all (a value was missing): no suggestion
        }
        return "";
    }
}
