package io.railmap.matrix.draw;

import io.railmap.matrix.model.Names;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Which ports a finding's sentence names. Every finding about a port or cable names it as
 * {@code node:port} ({@code a:en6}, {@code a:en6–b:en7}), and a node name holds no {@code ':'}, so
 * each {@code ':'} of the sentence is looked at: the longest text around it, without whitespace,
 * that is one of the ports asked about and is not glued to a letter or digit on either side
 * ({@code aa:en6} and {@code a:en60} do not name {@code a:en6}).
 *
 * <p>Cost: O(colons × {@value Names#MAX_BYTES}²) look-ups per sentence, whatever the number of ports.
 */
final class NamedPorts {
    private NamedPorts() {
    }

    /**
     * @param sentence a finding's message
     * @param ports    the ports that may be named, as {@code node:port}
     * @return the ports the sentence names, in the order it names them
     */
    static Set<String> in(String sentence, Set<String> ports) {
        Set<String> named = new LinkedHashSet<>();
        int n = sentence.length();
        for (int colon = sentence.indexOf(':'); colon >= 0; colon = sentence.indexOf(':', colon + 1)) {
            int left = colon;
            while (left > 0 && colon - left < Names.MAX_BYTES && !Character.isWhitespace(sentence.charAt(left - 1))) {
                left--;
            }
            int right = colon + 1;
            while (right < n && right - colon - 1 < Names.MAX_BYTES && !Character.isWhitespace(sentence.charAt(right))) {
                right++;
            }
            String best = null;
            for (int s = left; s < colon && best == null; s++) {
                for (int e = right; e > colon + 1; e--) {
                    if ((s == 0 || !Character.isLetterOrDigit(sentence.charAt(s - 1)))
                            && (e == n || !Character.isLetterOrDigit(sentence.charAt(e)))
                            && ports.contains(sentence.substring(s, e))) {
                        best = sentence.substring(s, e);
                        break;
                    }
                }
            }
            if (best != null) {
                named.add(best);
            }
        }
        return named;
    }
}
