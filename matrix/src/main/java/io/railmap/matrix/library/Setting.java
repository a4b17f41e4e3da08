package io.railmap.matrix.library;

import io.railmap.matrix.model.Names;
import java.util.regex.Pattern;

/**
 * One environment variable a library reads.
 *
 * @param key   the variable's name, {@code [A-Z_][A-Z0-9_]*}
 * @param value its value, printable (no control or invisible character)
 */
public record Setting(String key, String value) {
    private static final Pattern KEY = Pattern.compile("[A-Z_][A-Z0-9_]*");

    /** @throws IllegalArgumentException when the key is not a variable name or the value holds a control character */
    public Setting {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("\"" + Names.escape(key) + "\" is not an environment variable name");
        }
        Names.printable(key, value);
    }

    /** @return {@code KEY=VALUE} */
    @Override
    public String toString() {
        return key + "=" + value;
    }
}
