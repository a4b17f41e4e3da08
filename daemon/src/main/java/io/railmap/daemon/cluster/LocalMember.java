package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.stack.NodeAddresses;
import java.util.List;
import java.util.Map;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.PhysicalAddress;
import org.jgroups.stack.IpAddress;

/**
 * This member as its JGroups channel sees it: the channel, its own address and the last view, shared
 * by the parts of {@link Cluster}; and how a member is named in a log line.
 *
 * <p>Threads: set by {@link Cluster#start} and by JGroups' threads (address, views); read by any
 * thread, each field one volatile value.
 */
final class LocalMember {
    private volatile JChannel channel;
    private volatile Address self;
    /** The last view, its members by identity: one value, so that a reader never mixes two views. */
    private volatile View view = View.NONE;

    /**
     * The last view.
     *
     * @param order the members in view order; empty before the first view (a view always holds this member)
     * @param id    the view's number
     * @param byId  the members by identity ({@link NodeAddresses#id})
     */
    record View(List<Address> order, long id, Map<String, Address> byId) {
        static final View NONE = new View(List.of(), 0, Map.of());
    }

    void channel(JChannel channel) {
        this.channel = channel;
    }

    /** @return the channel, or null before {@link Cluster#start} made it */
    JChannel channel() {
        return channel;
    }

    /** @return the channel while it is connected, else null */
    JChannel connected() {
        JChannel ch = channel;
        return ch != null && ch.isConnected() ? ch : null;
    }

    void self(Address self) {
        this.self = self;
    }

    /** @return this member's address; null before the channel has one */
    Address self() {
        return self;
    }

    void view(View view) {
        this.view = view;
    }

    View view() {
        return view;
    }

    /** @return the member's physical address as {@code host:port} (IPv6 in brackets), or {@code ?} when not known */
    String physical(Address member) {
        JChannel ch = channel;
        Object physical = ch == null ? null : ch.down(new Event(Event.GET_PHYSICAL_ADDRESS, member));
        if (physical instanceof IpAddress ip) {
            String host = ip.getIpAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + ip.getPort();
        }
        return physical instanceof PhysicalAddress p ? p.printIpAddress() : "?";
    }

    /** @return the member's node name, or its identity for an address made by someone else */
    static String name(Address member) {
        return NodeAddresses.node(member).orElse(NodeAddresses.id(member));
    }
}
