package io.railmap.daemon.cluster.stack;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.PhysicalAddress;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.PingData;
import org.jgroups.protocols.PingHeader;
import org.jgroups.protocols.TCPPING;
import org.jgroups.util.NameCache;

/**
 * JGroups' TCPPING (discovery by seeds), which also answers a member asking for other members'
 * addresses with those it knows.
 *
 * <p>When a member has to send to a member whose physical address (host and port) it does not know,
 * JGroups' transport asks discovery: a discovery request naming the members it looks for, sent to
 * the seeds and the hosts TCPPING learned. TCPPING only lets each named member answer for itself, so
 * a member nobody asked knows of is never found: after a merge of partitions, members of one had no
 * address for members of the other, dropped every heartbeat to them and suspected them (docs/benchmarks.md, "At scale"). Here every member
 * that is asked also answers, in one message, with the addresses it holds of the named members. The
 * seeds hear a discovery request of every member (each join and each merge round), so they know
 * every address. JGroups' {@code return_entire_cache} would answer too, but with every address to
 * every request, merge rounds included, where MERGE3 sends an INFO to each: n² messages per round.
 *
 * <p>The wire is TCPPING's (same protocol id, same messages): a daemon with plain TCPPING reads the
 * answers as ordinary discovery answers. An answer names at most the members asked for whose
 * address this member holds, and at most 500 ({@code max_members_in_discovery_request}, above which
 * JGroups names no members in a request: it then gets only the answerer's own address, as with
 * TCPPING). A request of another cluster gets no answer (TCPPING drops it), and only members that
 * hold the cluster key, when there is one, can ask (the transport drops anything else below
 * discovery).
 */
final class AddressAnsweringPing extends TCPPING {
    AddressAnsweringPing() {
        // TCPPING's id, so that its headers are TCPPING's on the wire and an older daemon reads them
        setId(ClassConfigurator.getProtocolId(TCPPING.class));
    }

    /**
     * Whether TCPPING, handling a request on this thread, took it (its cluster is this one): TCPPING
     * then calls {@link #discoveryRequestReceived}; it drops a request of another cluster before.
     */
    private final ThreadLocal<Boolean> taken = ThreadLocal.withInitial(() -> false);

    @Override
    public void discoveryRequestReceived(Address sender, String name, PhysicalAddress physical) {
        super.discoveryRequestReceived(sender, name, physical);
        taken.set(true);
    }

    @Override
    protected Object handle(PingHeader hdr, Message msg) {
        taken.set(false);
        Object out = super.handle(hdr, msg);
        if (hdr.type() == PingHeader.GET_MBRS_REQ && taken.get() && !is_leaving && msg.getSrc() != null) {
            List<PingData> known = known(asked(readPingData(msg.getArray(), msg.getOffset(), msg.getLength()), msg.getSrc()));
            if (!known.isEmpty()) {
                sendDiscoveryResponse(known, msg.getSrc());
            }
        }
        return out;
    }

    /**
     * @return the members a request names, at most as many as JGroups lets a request name, without
     *         the asker and this member (TCPPING answers for itself); empty when it names none
     */
    private Set<Address> asked(List<PingData> data, Address asker) {
        Set<Address> out = new LinkedHashSet<>();
        if (data != null) {
            for (PingData pd : data) {
                if (pd != null && pd.mbrs() != null) {
                    for (Address a : pd.mbrs()) {
                        if (out.size() >= max_members_in_discovery_request) {
                            break;
                        }
                        out.add(a);
                    }
                }
            }
        }
        out.remove(asker);
        out.remove(local_addr);
        return out;
    }

    /** @return an answer for each of those members whose physical address the transport holds */
    private List<PingData> known(Set<Address> members) {
        List<PingData> out = new ArrayList<>();
        for (Address member : members) {
            Object physical = down_prot.down(new Event(Event.GET_PHYSICAL_ADDRESS, member));
            if (physical instanceof PhysicalAddress p) {
                out.add(new PingData(member, true, NameCache.get(member), p).coord(isCoord(member)));
            }
        }
        return out;
    }
}
