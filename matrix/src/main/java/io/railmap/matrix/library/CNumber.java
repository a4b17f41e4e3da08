package io.railmap.matrix.library;

import java.math.BigInteger;
import java.util.Optional;

/**
 * A number as C's {@code strtol} family reads the start of a string (C11 7.22.1.4): leading
 * white-space ({@code isspace}: space, {@code \t \n \v \f \r}), an optional sign, then in base 0 a
 * {@code 0x}/{@code 0X} prefix before a hex digit (hexadecimal), a leading {@code 0} (octal) or else
 * decimal; then as many digits of that base as follow. What comes after is ignored, as the libraries
 * here ignore it ({@code strtoll(str, nullptr, 0)}, {@code atoi}, {@code sscanf("%u")}).
 *
 * @param value the number read, exact (no overflow applied); empty when no digit was read, where
 *              {@code strtol} gives 0 and {@code sscanf} fails
 */
record CNumber(Optional<BigInteger> value) {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * @param text the variable's value
     * @param base 0 (C's automatic base) or 10
     * @return what C reads at its start
     */
    static CNumber read(String text, int base) {
        int i = 0;
        while (i < text.length() && " \t\n\u000b\f\r".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        boolean negative = i < text.length() && text.charAt(i) == '-';
        if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
            i++;
        }
        int radix = 10;
        if (base == 0 && text.startsWith("0", i)) {
            boolean hex = i + 2 < text.length() && (text.charAt(i + 1) == 'x' || text.charAt(i + 1) == 'X')
                    && Character.digit(text.charAt(i + 2), 16) >= 0;
            radix = hex ? 16 : 8;
            i += hex ? 2 : 0;
        }
        int start = i;
        while (i < text.length() && i - start < 64 && Character.digit(text.charAt(i), radix) >= 0 && text.charAt(i) < 0x80) {
            i++;
        }
        if (i == start) {
            return new CNumber(Optional.empty());
        }
        BigInteger magnitude = new BigInteger(text.substring(start, i), radix);
        return new CNumber(Optional.of(negative ? magnitude.negate() : magnitude));
    }

    /** @return true when {@code strtoll} reads no digit, and gives 0 */
    boolean none() {
        return value.isEmpty();
    }

    /** @return true when {@code strtoll} overflows (errno ERANGE) */
    boolean overflowsLong() {
        return value.map(v -> v.compareTo(LONG_MIN) < 0 || v.compareTo(LONG_MAX) > 0).orElse(false);
    }

    /** @return what {@code strtol}/{@code strtoll} returns: 0 without digits, clamped to the long range */
    long asLong() {
        return value.map(v -> v.max(LONG_MIN).min(LONG_MAX).longValue()).orElse(0L);
    }

    /** @return what {@code atoi} returns on glibc ({@code (int) strtol(s, NULL, 10)}) */
    int asInt() {
        return (int) asLong();
    }

    /**
     * @return what {@code sscanf("%lu")} stores on glibc ({@code strtoul}: a minus sign negates modulo
     *         2^64, a value past 2^64 - 1 is 2^64 - 1), 0 without a digit
     */
    BigInteger asUnsigned64() {
        BigInteger v = value.orElse(BigInteger.ZERO);
        BigInteger magnitude = v.abs().min(TWO_64.subtract(BigInteger.ONE));
        return v.signum() < 0 ? TWO_64.subtract(magnitude).mod(TWO_64) : magnitude;
    }

    /** @return what {@code sscanf("%u")} stores on glibc ({@link #asUnsigned64}, kept to 32 bits) */
    long asUnsigned32() {
        return asUnsigned64().longValue() & 0xffff_ffffL;
    }
}
