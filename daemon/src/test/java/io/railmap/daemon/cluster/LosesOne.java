package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.stack.NodeAddresses;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A test-only JGroups protocol for the top of a member's stack (above FRAG2, where JGroups has
 * already taken, ordered and acknowledged each message): once armed, it loses the next record
 * message, or the next holdings message, from one node, as JGroups loses one it drops before taking
 * it, so that nothing below retransmits it. Every other message passes.
 */
final class LosesOne extends Protocol {
    private final String fromNode;
    private final boolean holdings;
    private final AtomicBoolean armed;
    private final AtomicInteger lost = new AtomicInteger();

    private LosesOne(String fromNode, boolean holdings, boolean armed) {
        this.fromNode = fromNode;
        this.holdings = holdings;
        this.armed = new AtomicBoolean(armed);
    }

    /** @return a protocol that loses the first record message from {@code fromNode} */
    static LosesOne firstRecord(String fromNode) {
        return new LosesOne(fromNode, false, true);
    }

    /** @return a protocol that, once {@link #arm}ed, loses the next holdings message from {@code fromNode} */
    static LosesOne nextHoldings(String fromNode) {
        return new LosesOne(fromNode, true, false);
    }

    /** From now on, the next message of the kind from the node is lost. */
    void arm() {
        armed.set(true);
    }

    /** @return messages lost so far: 0 or 1 */
    int lost() {
        return lost.get();
    }

    private boolean loses(Message msg) {
        return msg.getSrc() != null && (msg.getHeader(HoldingsHeader.ID) != null) == holdings
                && NodeAddresses.node(msg.getSrc()).filter(fromNode::equals).isPresent() && armed.compareAndSet(true, false)
                && lost.incrementAndGet() > 0;
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
