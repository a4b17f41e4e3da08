package io.railmap.matrix.model;

import java.util.Comparator;

/**
 * Orders names with runs of digits compared as numbers, so {@code mlx5_2 < mlx5_10} and
 * {@code en6 < en7 < en10}. Ties between equal numbers written differently ({@code en01} and
 * {@code en1}) fall back to plain string order, so the order is total and consistent with equals.
 */
public final class NaturalOrder implements Comparator<String> {
    /** The one instance. */
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (isDigit(ca) && isDigit(cb)) {
                int endA = digitsEnd(a, i);
                int endB = digitsEnd(b, j);
                String da = stripZeros(a.substring(i, endA));
                String db = stripZeros(b.substring(j, endB));
                int byLength = Integer.compare(da.length(), db.length());
                if (byLength != 0) {
                    return byLength;
                }
                int byDigits = da.compareTo(db);
                if (byDigits != 0) {
                    return byDigits;
                }
                i = endA;
                j = endB;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        int byRest = Integer.compare(a.length() - i, b.length() - j);
        return byRest != 0 ? byRest : a.compareTo(b);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int digitsEnd(String s, int from) {
        int end = from;
        while (end < s.length() && isDigit(s.charAt(end))) {
            end++;
        }
        return end;
    }

    private static String stripZeros(String digits) {
        int k = 0;
        while (k < digits.length() - 1 && digits.charAt(k) == '0') {
            k++;
        }
        return digits.substring(k);
    }
}
