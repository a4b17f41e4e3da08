package io.railmap.daemon.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railmap.daemon.cluster.Agreement;
import io.railmap.daemon.cluster.Member;
import io.railmap.daemon.cluster.Membership;
import io.railmap.daemon.events.EventLog;
import io.railmap.matrix.change.Change;
import io.railmap.matrix.change.ChangeType;
import io.railmap.matrix.codec.JsonText;
import io.railmap.matrix.plan.NoRingException;
import io.railmap.matrix.rail.UnknownNodesException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The reply records write the very bytes the hand-built trees wrote before them (issue 31): the old
 * builders are kept here, verbatim, as the reference, and each answer is compared with and without its
 * nulls and optional fields.
 */
class RepliesTest {
    private static final Membership MEMBERS = new Membership("railmap", 7, List.of(
            new Member(Optional.of("a"), "10.0.0.1:7800", true, true, OptionalLong.of(1795360169801L), OptionalLong.of(40)),
            new Member(Optional.empty(), "10.0.0.9:7800", false, false, OptionalLong.empty(), OptionalLong.empty())));
    private static final Agreement AGREEMENT = new Agreement("railmap", 9, "sha256:abc", 4, false, List.of(
            new Agreement.MemberHoldings(Optional.of("a"), "10.0.0.1:7800", true, Optional.of("sha256:abc"), OptionalInt.of(4), true),
            new Agreement.MemberHoldings(Optional.empty(), "10.0.0.2:7800", false, Optional.empty(), OptionalInt.empty(), false)));

    @Test
    void membersAreByteIdenticalToTheHandBuiltAnswer() {
        assertThat(Replies.write(Replies.Members.of(MEMBERS))).isEqualTo(oldMembersJson(MEMBERS));
        Membership none = new Membership("c", 0, List.of());
        assertThat(Replies.write(Replies.Members.of(none))).isEqualTo(oldMembersJson(none));
    }

    @Test
    void agreementIsByteIdenticalWithAndWithoutHosts() {
        assertThat(Replies.write(Replies.AgreementReply.of(AGREEMENT, Optional.empty(), Optional.empty())))
                .isEqualTo(oldAgreementJson(AGREEMENT, Optional.empty(), Optional.empty(), List.of()));
        Optional<List<String>> hosts = Optional.of(List.of("a", "b"));
        List<String> records = List.of("a@12.1f2e3d4c", "b@7.9a8b7c6d");
        Replies.AgreementReply withHosts = new Replies.AgreementReply("railmap", 9, false, "sha256:abc", 4, hosts.get(), "sha256:def", records,
                AGREEMENT.members().stream().map(Replies.Holding::of).toList());
        assertThat(Replies.write(withHosts)).isEqualTo(oldAgreementJson(AGREEMENT, hosts, Optional.of("sha256:def"), records));
    }

    @Test
    void healthIsByteIdenticalHealthyAndNot() {
        assertThat(Replies.write(Replies.Health.of("a", 12, List.of()))).isEqualTo(oldHealth("a", 12, List.of()));
        List<String> stuck = List.of("event loop 1 has not run a task for 6 s", "the cluster channel is not connected");
        assertThat(Replies.write(Replies.Health.of("a", 12, stuck))).isEqualTo(oldHealth("a", 12, stuck));
    }

    @Test
    void errorsAreByteIdenticalWithTheirNodeLists() {
        assertThat(Replies.write(ErrorReplies.error("no resource \"/x\""))).isEqualTo(JsonText.pretty(oldError("no resource \"/x\"")));
        UnknownNodesException unknown = new UnknownNodesException(List.of("zz", "yy"), List.of("a", "b"));
        ObjectNode u = oldError(unknown.getMessage());
        ArrayNode nodes = u.putArray("unknown");
        unknown.nodes().forEach(nodes::add);
        assertThat(Replies.write(ErrorReplies.body(404, unknown, "fallback"))).isEqualTo(JsonText.pretty(u));
        NoRingException noRing = new NoRingException(List.of("c"), "c has one cable");
        ObjectNode n = oldError(noRing.getMessage());
        ArrayNode left = n.putArray("unplaceable");
        noRing.unplaceable().forEach(left::add);
        assertThat(Replies.write(ErrorReplies.body(422, noRing, "fallback"))).isEqualTo(JsonText.pretty(n));
    }

    @Test
    void theMissedEventIsTheOneLineItWas() {
        ObjectNode missed = JsonText.object();
        missed.put("type", "missed");
        missed.put("message", "events after x-1 are gone: read GET /v1/snapshot again");
        assertThat(Replies.line(new Replies.EventData(null, "missed", null, "events after x-1 are gone: read GET /v1/snapshot again")))
                .isEqualTo(missed.toString());
    }

    /** The event data the stream writes (EventLog, outside this package) is exactly what the document's EventData describes. */
    @Test
    void anEventsDataIsTheEventDataRecord() {
        Change change = new Change(ChangeType.CABLE_LOST, List.of("a:en2", "b:en4"), "cable a:en2–b:en4 lost");
        EventLog.Event event = new EventLog.Event("1f2e3d4c-42", 42, change);
        assertThat(event.json()).isEqualTo(Replies.line(new Replies.EventData("1f2e3d4c-42", "cable-lost", change.subjects(), change.message())));
    }

    // The builders ApiVerticle and ErrorReplies used before the records, kept as the reference.

    private static ObjectNode oldError(String sentence) {
        ObjectNode out = JsonText.object();
        out.put("error", sentence);
        return out;
    }

    private static String oldHealth(String node, long version, List<String> stuck) {
        ObjectNode out = JsonText.object();
        out.put("status", stuck.isEmpty() ? "ok" : "unhealthy");
        out.put("node", node);
        out.put("recordVersion", version);
        if (!stuck.isEmpty()) {
            ArrayNode list = out.putArray("problems");
            stuck.forEach(list::add);
        }
        return JsonText.pretty(out);
    }

    private static String oldAgreementJson(Agreement a, Optional<List<String>> hosts, Optional<String> digest, List<String> records) {
        ObjectNode out = JsonText.object();
        out.put("cluster", a.cluster());
        out.put("viewId", a.viewId());
        out.put("agreed", a.agreed());
        out.put("digest", a.digest());
        out.put("records", a.records());
        if (hosts.isPresent()) {
            ArrayNode h = out.putArray("hosts");
            hosts.get().forEach(h::add);
            out.put("hostsDigest", digest.orElseThrow());
            ArrayNode ids = out.putArray("hostsRecords");
            records.forEach(ids::add);
        } else {
            out.putNull("hosts");
            out.putNull("hostsDigest");
            out.putNull("hostsRecords");
        }
        ArrayNode list = out.putArray("members");
        for (Agreement.MemberHoldings m : a.members()) {
            ObjectNode o = list.addObject();
            o.put("node", m.node().orElse(null));
            o.put("address", m.address());
            o.put("self", m.self());
            o.put("digest", m.digest().orElse(null));
            if (m.records().isPresent()) {
                o.put("records", m.records().getAsInt());
            } else {
                o.putNull("records");
            }
            o.put("agrees", m.agrees());
        }
        return JsonText.pretty(out);
    }

    private static String oldMembersJson(Membership m) {
        ObjectNode out = JsonText.object();
        out.put("cluster", m.cluster());
        out.put("viewId", m.viewId());
        ArrayNode list = out.putArray("members");
        for (Member member : m.members()) {
            ObjectNode o = list.addObject();
            o.put("node", member.node().orElse(null));
            o.put("address", member.address());
            o.put("self", member.self());
            o.put("coordinator", member.coordinator());
            if (member.recordVersion().isPresent()) {
                o.put("recordVersion", member.recordVersion().getAsLong());
            } else {
                o.putNull("recordVersion");
            }
            if (member.recordAgeMs().isPresent()) {
                o.put("recordAgeMs", member.recordAgeMs().getAsLong());
            } else {
                o.putNull("recordAgeMs");
            }
        }
        return JsonText.pretty(out);
    }
}
