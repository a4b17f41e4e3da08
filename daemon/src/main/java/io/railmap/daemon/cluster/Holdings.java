package io.railmap.daemon.cluster;

import io.railmap.matrix.codec.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which records every member holds, by digest: each daemon sends, to every member, the digest of
 * all the records it holds ({@link io.railmap.matrix.provenance.Provenance}) whenever that changes and
 * after every view; this keeps the last digest heard from each member of the current view. The
 * cluster agrees when every member's digest equals this daemon's: then every rank, whichever daemon
 * it asks, computes the same config for any hosts.
 *
 * <p>One digest of all records, not one per node, keeps a holdings message at about 80 bytes however
 * large the cluster (a message per member per change, never a table per member). The price: a change
 * to any record shows as disagreement until every member holds it, even when the hosts asked about
 * did not change; agreement is never claimed where it does not hold.
 *
 * <p>The message is text, {@code sha256:<64 hex> <records>}, at most {@value #MAX_BYTES} bytes;
 * anything else is ignored. A digest is kept even from a sender this daemon's view does not hold
 * yet (a newcomer is told once, and that may arrive before the view that admits its sender); every
 * view drops the digests of non-members, and at most {@value #MAX_MEMBERS} are kept at once.
 */
final class Holdings {
    /** Largest holdings message taken, in bytes. */
    static final int MAX_BYTES = 128;
    private static final Pattern FORM = Pattern.compile("(sha256:[0-9a-f]{64}) ([0-9]{1,9})");

    /**
     * What one member holds.
     *
     * @param digest  the digest of all the records it holds
     * @param records how many records that is
     */
    record Held(String digest, int records) {
    }

    private final Map<String, Held> byMember = new HashMap<>();

    /** @return the message for what this daemon holds */
    static byte[] encode(Held held) {
        return (held.digest() + " " + held.records()).getBytes(StandardCharsets.UTF_8);
    }

    /** @return what a holdings message says, or empty when it is malformed */
    static Optional<Held> decode(byte[] bytes, int offset, int length) {
        if (length > MAX_BYTES) {
            return Optional.empty();
        }
        return Utf8.strict(bytes, offset, length).map(FORM::matcher).filter(Matcher::matches)
                .map(m -> new Held(m.group(1), Integer.parseInt(m.group(2))));
    }

    /** Most members whose digests are kept: as many as records a daemon holds. */
    static final int MAX_MEMBERS = RecordIntake.MAX_RECORDS;

    /** Keeps what a member said it holds; a new member beyond {@value #MAX_MEMBERS} is ignored. */
    synchronized void heard(String member, Held held) {
        if (byMember.size() < MAX_MEMBERS || byMember.containsKey(member)) {
            byMember.put(member, held);
        }
    }

    /** Forgets the members that are no longer in the view. */
    synchronized void retain(Set<String> members) {
        byMember.keySet().retainAll(members);
    }

    /** @return a copy of what every member said */
    synchronized Map<String, Held> all() {
        return Map.copyOf(byMember);
    }
}
