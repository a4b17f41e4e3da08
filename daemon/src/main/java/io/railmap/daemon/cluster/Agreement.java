package io.railmap.daemon.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether every member of the view holds the same records as this daemon ({@link Holdings}), for
 * {@code GET /v1/agreement}.
 *
 * @param cluster the cluster name
 * @param viewId  the view's number
 * @param digest  the digest of all the records this daemon holds ({@code sha256:…})
 * @param records how many records that is
 * @param agreed  true when every member of the view said it holds exactly these records
 * @param members the members in view order, with what each said it holds
 */
public record Agreement(String cluster, long viewId, String digest, int records, boolean agreed, List<MemberHoldings> members) {
    /** Copies the members. */
    public Agreement {
        Objects.requireNonNull(digest, "digest");
        members = List.copyOf(members);
    }

    /**
     * What one member holds.
     *
     * @param node    the node its address names; empty for a member that is not a railmapd
     * @param address its cluster address, or {@code "?"}
     * @param self    whether it is this daemon
     * @param digest  the digest it last said it holds; empty when it has not said yet
     * @param records how many records it holds, when it has said
     * @param agrees  whether that digest is this daemon's
     */
    public record MemberHoldings(Optional<String> node, String address, boolean self, Optional<String> digest, OptionalInt records,
                                 boolean agrees) {
    }
}
