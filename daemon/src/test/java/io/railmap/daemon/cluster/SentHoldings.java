package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.stack.NodeAddresses;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;

/**
 * A test-only JGroups protocol for the top of a member's stack: notes where each holdings message
 * the member sends goes (a member's node, or empty for every member) and passes every message on.
 */
final class SentHoldings extends Protocol {
    private final List<Optional<String>> sent = new CopyOnWriteArrayList<>();

    /** @return the destination of each holdings message sent so far, in order: a node, or empty for a multicast */
    List<Optional<String>> destinations() {
        return List.copyOf(sent);
    }

    @Override
    public Object down(Message msg) {
        if (msg.getHeader(HoldingsHeader.ID) != null) {
            Address dest = msg.getDest();
            sent.add(dest == null ? Optional.empty() : Optional.of(NodeAddresses.node(dest).orElse(NodeAddresses.id(dest))));
        }
        return down_prot.down(msg);
    }
}
