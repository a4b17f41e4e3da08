package io.railmap.matrix.change;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.model.PortRef;
import io.railmap.matrix.provenance.RecordId;
import io.railmap.matrix.topology.Cable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The changes from one {@link ClusterState} to the next, in the order a reader wants them: members
 * left and joined, records changed, ports down and up, cables lost and added, findings cleared and
 * raised, agreement lost or reached. A port up or down is reported only for a port known in both
 * states (a node that arrives brings its ports with its record, not as port-up events). Cost: linear
 * in the two states.
 */
public final class Changes {
    private Changes() {
    }

    /**
     * @param before the earlier state ({@link ClusterState#EMPTY} at start)
     * @param after  the later state
     * @return the changes, empty when nothing an event reports changed
     */
    public static List<Change> between(ClusterState before, ClusterState after) {
        List<Change> out = new ArrayList<>();
        gone(before.members(), after.members()).forEach(n -> out.add(new Change(ChangeType.MEMBER_LEFT, List.of(n), "member " + n + " left")));
        gone(after.members(), before.members()).forEach(n -> out.add(new Change(ChangeType.MEMBER_JOINED, List.of(n), "member " + n + " joined")));
        records(before.records(), after.records(), out);
        for (Map.Entry<PortRef, Boolean> port : after.ports().entrySet()) {
            Boolean was = before.ports().get(port.getKey());
            if (was != null && !was.equals(port.getValue())) {
                boolean up = port.getValue();
                out.add(new Change(up ? ChangeType.PORT_UP : ChangeType.PORT_DOWN, List.of(port.getKey().toString()),
                        "port " + port.getKey() + (up ? " up" : " down")));
            }
        }
        gone(before.cables(), after.cables()).forEach(c -> out.add(cable(ChangeType.CABLE_LOST, c, "lost")));
        gone(after.cables(), before.cables()).forEach(c -> out.add(cable(ChangeType.CABLE_ADDED, c, "added")));
        gone(before.findings(), after.findings()).forEach(f -> out.add(finding(ChangeType.FINDING_CLEARED, f, "cleared")));
        gone(after.findings(), before.findings()).forEach(f -> out.add(finding(ChangeType.FINDING_RAISED, f, "raised")));
        Optional<ClusterState.Agreed> was = before.agreed();
        Optional<ClusterState.Agreed> now = after.agreed();
        if (now.isPresent() && (was.isEmpty() || was.get().agreed() != now.get().agreed()
                || now.get().agreed() && !was.get().digest().equals(now.get().digest()))) {
            String digest = now.get().digest();
            out.add(now.get().agreed()
                    ? new Change(ChangeType.AGREEMENT_REACHED, List.of(digest), "every member holds the same records (" + digest + ")")
                    : new Change(ChangeType.AGREEMENT_LOST, List.of(digest), "not every member holds this daemon's records (" + digest + ")"));
        }
        return out;
    }

    private static void records(Map<String, RecordId> before, Map<String, RecordId> after, List<Change> out) {
        for (Map.Entry<String, RecordId> was : before.entrySet()) {
            if (!after.containsKey(was.getKey())) {
                out.add(new Change(ChangeType.RECORD_CHANGED, List.of(was.getKey(), was.getValue().toString()),
                        "record of " + was.getKey() + " dropped (was " + was.getValue() + ")"));
            }
        }
        for (Map.Entry<String, RecordId> now : after.entrySet()) {
            RecordId was = before.get(now.getKey());
            if (!now.getValue().equals(was)) {
                out.add(new Change(ChangeType.RECORD_CHANGED, List.of(now.getKey(), now.getValue().toString()),
                        "record of " + now.getKey() + (was == null ? " added (" + now.getValue() + ")" : " is now " + now.getValue() + " (was " + was + ")")));
            }
        }
    }

    private static Change cable(ChangeType type, Cable cable, String what) {
        return new Change(type, List.of(cable.a().toString(), cable.b().toString()), "cable " + cable + " " + what);
    }

    private static Change finding(ChangeType type, Finding f, String what) {
        List<String> subjects = new ArrayList<>(List.of(f.code().wireName()));
        f.ports().forEach(p -> subjects.add(p.toString()));
        return new Change(type, subjects, f.severity().wireName() + " " + f.code().wireName() + " " + what + ": " + f.message());
    }

    /** @return the elements of {@code from} not in {@code other}, in {@code from}'s order */
    private static <T> List<T> gone(Set<T> from, Set<T> other) {
        return from.stream().filter(x -> !other.contains(x)).toList();
    }
}
