package io.railmap.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.Names;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Port;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.topology.Topology;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A test oracle: which ports a finding's sentence names, found by reading the sentence. Every port
 * is written {@code node:port} and a node name holds no {@code ':'}, so each {@code ':'} is looked
 * at: the longest text around it, without whitespace, that is one of the candidate ports and is not
 * glued to a letter or digit on either side ({@code aa:en6} and {@code a:en60} do not name
 * {@code a:en6}). Production code never reads its own sentences; this checks that
 * {@link Finding#ports()} says what the sentence says.
 */
public final class SentencePorts {
    private SentencePorts() {
    }

    /**
     * @param sentence a finding's message
     * @param ports    the ports that may be named, as {@code node:port}
     * @return the ports the sentence names, each once, in the order it first names them
     */
    public static List<String> in(String sentence, Set<String> ports) {
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
        return List.copyOf(named);
    }

    /** @return every port a topology knows: its records' ports and every far end they observed */
    public static Set<String> known(Topology topology) {
        Set<String> out = new HashSet<>();
        for (String node : topology.nodes()) {
            for (Port p : topology.record(node).map(NodeRecord::ports).orElse(List.of())) {
                out.add(p.ref().toString());
                p.neighbours().forEach(q -> out.add(q.toString()));
            }
        }
        topology.unconfirmed().forEach(u -> u.farEnd().ifPresent(q -> out.add(q.toString())));
        topology.sharedSegments().forEach(s -> s.farEnds().forEach(q -> out.add(q.toString())));
        topology.sourceConflicts().forEach(c -> {
            out.add(c.paired().toString());
            c.probed().forEach(q -> out.add(q.toString()));
        });
        return out;
    }

    /**
     * Asserts that each finding's {@link Finding#ports()} are exactly the ports of {@code known} (and
     * its own) that its sentence names, in the sentence's order.
     */
    public static void assertCarried(Collection<Finding> findings, Set<String> known) {
        for (Finding f : findings) {
            Set<String> candidates = new HashSet<>(known);
            f.ports().forEach(p -> candidates.add(p.toString()));
            assertThat(f.ports()).as("ports of %s %s", f.code().wireName(), f.message()).extracting(PortRef::toString)
                    .containsExactlyElementsOf(in(f.message(), candidates));
        }
    }

    /** {@link #assertCarried(Collection, Set)} with the ports {@code topology} knows. */
    public static void assertCarried(Collection<Finding> findings, Topology topology) {
        assertCarried(findings, known(topology));
    }
}
