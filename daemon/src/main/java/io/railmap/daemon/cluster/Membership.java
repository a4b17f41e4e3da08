package io.railmap.daemon.cluster;

import java.util.List;
import java.util.Objects;

/**
 * The current view as this daemon sees it, for {@code GET /v1/members}.
 *
 * @param cluster the cluster name
 * @param viewId  the view's number: grows with every view the coordinator installs (a merge view
 *                starts from the highest number of the merged parts); 0 before the first view
 * @param members the members in view order (the coordinator first)
 */
public record Membership(String cluster, long viewId, List<Member> members) {
    /** @throws NullPointerException when a field is null */
    public Membership {
        Objects.requireNonNull(cluster, "cluster");
        members = List.copyOf(members);
    }
}
