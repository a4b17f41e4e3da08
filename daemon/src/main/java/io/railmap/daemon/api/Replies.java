package io.railmap.daemon.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.railmap.daemon.cluster.Agreement;
import io.railmap.daemon.cluster.Member;
import io.railmap.daemon.cluster.Membership;
import io.railmap.matrix.codec.Nullable;
import io.railmap.matrix.provenance.Provenance;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The JSON answers of the API as records, written by Jackson databind with their field order pinned
 * ({@link JsonPropertyOrder}), indented as every answer is ({@link #write}). {@link ApiDocument} derives
 * the answer schemas of {@code GET /v1/openapi.json} from these same records ({@link JsonSchemas}), so
 * a field added here is in the document with no other edit.
 *
 * <p>A component that may be JSON {@code null} is a boxed type ({@link Long}, {@link Integer}) or one
 * marked {@link Nullable} (the core's, which its own JSON records use too); one that is left out when
 * absent is marked {@code @JsonInclude(NON_NULL)} (and is not {@code required} in the schema). The
 * core's records ({@code PlanJson}, {@code FindingJson}, ...) follow the same rules.
 */
public final class Replies {
    /** The same configuration as railmap's other JSON (Jackson's defaults): the bytes of every answer stay as they were. */
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

    private Replies() {
    }

    /**
     * @param reply one of the records here
     * @return it as indented JSON ending with a newline, as {@code JsonText.pretty} writes a tree
     */
    public static String write(Object reply) {
        try {
            return PRETTY.writeValueAsString(reply) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param reply one of the records here
     * @return it as JSON on one line, no newline (the data of a server-sent event)
     */
    public static String line(Object reply) {
        try {
            return MAPPER.writeValueAsString(reply);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code GET /healthz}.
     *
     * @param status        {@code ok}, or {@code unhealthy} (answered with 503)
     * @param node          this daemon's node
     * @param recordVersion the version of this node's record
     * @param problems      what is stuck, one sentence each; left out when healthy
     */
    @JsonPropertyOrder({"status", "node", "recordVersion", "problems"})
    public record Health(String status, String node, long recordVersion, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> problems) {
        /** @return ok when nothing is stuck, else unhealthy with the problems */
        static Health of(String node, long recordVersion, List<String> stuck) {
            return stuck.isEmpty() ? new Health("ok", node, recordVersion, null) : new Health("unhealthy", node, recordVersion, List.copyOf(stuck));
        }
    }

    /**
     * {@code GET /v1/members}: the members in view order, the coordinator first.
     *
     * @param cluster the cluster's name
     * @param viewId  the view's number
     * @param members each member
     */
    @JsonPropertyOrder({"cluster", "viewId", "members"})
    public record Members(String cluster, long viewId, List<MemberReply> members) {
        static Members of(Membership m) {
            return new Members(m.cluster(), m.viewId(), m.members().stream().map(MemberReply::of).toList());
        }
    }

    /**
     * One member of {@link Members}.
     *
     * @param node          its node; null for a member that is not a railmapd
     * @param address       its cluster address, {@code HOST:PORT}
     * @param self          true for this daemon
     * @param coordinator   true for the view's coordinator
     * @param recordVersion the version of its record this daemon holds; null while none is held
     * @param recordAgeMs   ms since this daemon took that version (for itself: made it); null while none is held
     */
    @JsonPropertyOrder({"node", "address", "self", "coordinator", "recordVersion", "recordAgeMs"})
    public record MemberReply(@Nullable String node, String address, boolean self, boolean coordinator, Long recordVersion, Long recordAgeMs) {
        static MemberReply of(Member m) {
            return new MemberReply(m.node().orElse(null), m.address(), m.self(), m.coordinator(),
                    m.recordVersion().isPresent() ? m.recordVersion().getAsLong() : null,
                    m.recordAgeMs().isPresent() ? m.recordAgeMs().getAsLong() : null);
        }
    }

    /**
     * {@code GET /v1/agreement?hosts=a,b} ({@code hosts} optional).
     *
     * @param cluster      the cluster's name
     * @param viewId       the view's number
     * @param agreed       every member of the view said it holds exactly the records this daemon holds
     * @param digest       the digest of all of them, {@code sha256:…}
     * @param records      how many records that is
     * @param hosts        the hosts asked, in order; null without {@code hosts}
     * @param hostsDigest  the digest configs for those hosts carry ({@code RAILMAP_TOPOLOGY}); null without {@code hosts}
     * @param hostsRecords their records, {@code node@version.hash}; null without {@code hosts}
     * @param members      what each member holds
     */
    @JsonPropertyOrder({"cluster", "viewId", "agreed", "digest", "records", "hosts", "hostsDigest", "hostsRecords", "members"})
    public record AgreementReply(String cluster, long viewId, boolean agreed, String digest, int records, @Nullable List<String> hosts,
                                 @Nullable String hostsDigest, @Nullable List<String> hostsRecords, List<Holding> members) {
        static AgreementReply of(Agreement a, Optional<List<String>> hosts, Optional<Provenance> provenance) {
            return new AgreementReply(a.cluster(), a.viewId(), a.agreed(), a.digest(), a.records(), hosts.map(List::copyOf).orElse(null),
                    provenance.map(Provenance::digest).orElse(null),
                    provenance.map(p -> p.records().stream().map(Object::toString).toList()).orElse(null),
                    a.members().stream().map(Holding::of).toList());
        }
    }

    /**
     * One member of {@link AgreementReply}.
     *
     * @param node    its node; null for a member that is not a railmapd
     * @param address its cluster address
     * @param self    true for this daemon
     * @param digest  the digest of what it holds; null until it has said
     * @param records how many records it holds; null until it has said
     * @param agrees  true when it holds exactly this daemon's records
     */
    @JsonPropertyOrder({"node", "address", "self", "digest", "records", "agrees"})
    public record Holding(@Nullable String node, String address, boolean self, @Nullable String digest, Integer records, boolean agrees) {
        static Holding of(Agreement.MemberHoldings m) {
            return new Holding(m.node().orElse(null), m.address(), m.self(), m.digest().orElse(null),
                    m.records().isPresent() ? m.records().getAsInt() : null, m.agrees());
        }
    }

    /**
     * Every error answer ({@link ErrorReplies}).
     *
     * @param error       one sentence: what was wrong and what to do
     * @param unknown     the nodes no record names (404 for unknown hosts only)
     * @param unplaceable the nodes no ring passes through (422 only)
     */
    @JsonPropertyOrder({"error", "unknown", "unplaceable"})
    public record ErrorReply(String error, @JsonInclude(JsonInclude.Include.NON_NULL) List<String> unknown,
                             @JsonInclude(JsonInclude.Include.NON_NULL) List<String> unplaceable) {
        /** @return a reply with the sentence only */
        static ErrorReply of(String error) {
            return new ErrorReply(error, null, null);
        }
    }

    /**
     * The data of one server-sent event of {@code GET /v1/events} (written by
     * {@code io.railmap.daemon.events.EventLog.Event#json}, one line).
     *
     * @param id       {@code BOOT-SEQ}, also the event's {@code id:}; left out of {@code missed}
     * @param type     the change's external name, also the event's {@code event:} (or {@code missed})
     * @param subjects what it is about: ports {@code node:netdev}, nodes, record ids, or a finding's code then its
     *                 ports; left out of {@code missed}
     * @param message  one sentence for people
     */
    @JsonPropertyOrder({"id", "type", "subjects", "message"})
    public record EventData(@JsonInclude(JsonInclude.Include.NON_NULL) String id, String type,
                            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> subjects, String message) {
    }
}
