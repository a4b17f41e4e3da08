package io.railmap.matrix.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The one rule for how enum constants appear in JSON, flags and query strings: lower case, words
 * joined by {@code -} ({@code MISMATCHED_RAIL} → {@code mismatched-rail}).
 */
public final class EnumNames {
    private EnumNames() {
    }

    /** @return the external name of a constant, e.g. {@code "mismatched-rail"} */
    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param type  the enum
     * @param what  what the value is, for the message (e.g. {@code "port kind"})
     * @param value a external name, any case
     * @return the constant with that external name
     * @throws IllegalArgumentException naming the value and the valid ones when none matches
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String what, String value) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equalsIgnoreCase(value)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " \"" + Names.escape(value) + "\" (expected one of "
                + Arrays.stream(type.getEnumConstants()).map(EnumNames::of).collect(Collectors.joining(", ")) + ")");
    }
}
