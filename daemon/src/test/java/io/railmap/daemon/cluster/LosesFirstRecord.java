package io.railmap.daemon.cluster;

import java.util.concurrent.atomic.AtomicInteger;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A test-only JGroups protocol for the top of a member's stack (above FRAG2, where JGroups has
 * already taken, ordered and acknowledged each message): it loses the first record message from
 * one node, as JGroups loses one it drops before taking it, so that nothing below retransmits it.
 * Holdings messages and records from other nodes pass.
 */
final class LosesFirstRecord extends Protocol {
    private final String fromNode;
    private final AtomicInteger lost = new AtomicInteger();

    /** @param fromNode the node whose first record message is lost */
    LosesFirstRecord(String fromNode) {
        this.fromNode = fromNode;
    }

    /** @return record messages lost so far: 0 or 1 */
    int lost() {
        return lost.get();
    }

    private boolean loses(Message msg) {
        return msg.getSrc() != null && msg.getHeader(HoldingsHeader.ID) == null
                && NodeAddresses.node(msg.getSrc()).filter(fromNode::equals).isPresent() && lost.compareAndSet(0, 1);
    }

    @Override
    public Object up(Message msg) {
        return loses(msg) ? null : up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        batch.removeIf(this::loses, true);
        if (!batch.isEmpty()) {
            up_prot.up(batch);
        }
    }
}
