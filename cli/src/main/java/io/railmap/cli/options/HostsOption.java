package io.railmap.cli.options;

import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.List;

/** Parsing of {@code --hosts a,b,c}. */
public final class HostsOption {
    private HostsOption() {
    }

    /**
     * @param value a comma-separated list of node names
     * @return the names in order
     * @throws IllegalArgumentException when a name is empty or malformed
     */
    public static List<String> parse(String value) {
        List<String> out = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            String trimmed = name.trim();
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException("--hosts \"" + value + "\" has an empty name: write node names separated by commas, e.g. a,b,c");
            }
            out.add(Names.node("--hosts", trimmed));
        }
        return out;
    }
}
