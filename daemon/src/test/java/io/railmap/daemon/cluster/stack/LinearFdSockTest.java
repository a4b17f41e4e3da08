package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.testing.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jgroups.Address;
import org.jgroups.EmptyMessage;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three channels with the daemon's stack on loopback (a, the coordinator, then b and c), once with
 * {@link LinearFdSock} and once with JGroups' own FD_SOCK2 in its place: a suspicion sent the way
 * FD_SOCK2 sends one (a SUSPECT header, multicast below FD_SOCK2) is passed up the stack by the
 * coordinator of the view without the suspects, and by no other member (the suspect, alive, answers
 * VERIFY_SUSPECT2 and is unsuspected everywhere), with both. The message may arrive more than once,
 * with both: what is asserted is who passes which suspects on, not how often. Heartbeats and merge
 * rounds are slow, so that nothing else suspects anyone meanwhile.
 */
// alone (docs/testing.md): with a second test JVM beside it, c stayed suspected somewhere for 30 s, twice in six
// runs (once on an otherwise idle machine), never in one JVM. Cause not found: VERIFY_SUSPECT2 unsuspects only in the
// member that verified (a), so how b and c drop c is FD_SOCK2's doing, and that is where to look
@Tag("alone")
class LinearFdSockTest {
    private static final String CLUSTER = "fdsock-test";

    private final List<JChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        channels.forEach(JChannel::close);
    }

    @ParameterizedTest(name = "JGroups'' own FD_SOCK2: {0}")
    @ValueSource(booleans = {false, true})
    void onlyTheCoordinatorOfTheViewWithoutTheSuspectsPassesASuspicionOn(boolean jgroupsOwn) throws Exception {
        int seedPort = FreePorts.clusterPort();
        Member a = member("a", seedPort, seedPort, jgroupsOwn);
        Member b = member("b", FreePorts.clusterPort(), seedPort, jgroupsOwn);
        Member c = member("c", FreePorts.clusterPort(), seedPort, jgroupsOwn);
        await("one view of three, a first").atMost(Duration.ofSeconds(10)).until(() ->
                channels.stream().allMatch(ch -> ch.getView().size() == 3 && ch.getView().getCoord().equals(a.address())));

        b.suspectToEveryone(c.address());
        await("a, the coordinator, passes the suspicion of c on").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(a.suspicions()).isNotEmpty().containsOnly(List.of(c.address())));

        await("c, alive, is unsuspected everywhere (VERIFY_SUSPECT2 asked it)").atMost(Duration.ofSeconds(30))
                .until(() -> channels.stream().allMatch(ch -> ch.getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class).getNumSuspectedMembers() == 0));

        c.suspectToEveryone(a.address());
        await("b, first without a, passes the suspicion of a on").atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(b.suspicions()).isNotEmpty().containsOnly(List.of(a.address())));
        assertThat(a.suspicions()).as("a drops itself from a suspicion").containsOnly(List.of(c.address()));
        assertThat(c.suspicions()).as("c is never first").isEmpty();
        assertThat(a.channel().getView().size()).as("c and a answered VERIFY_SUSPECT2: nobody excluded").isEqualTo(3);
    }

    private Member member(String node, int port, int seedPort, boolean jgroupsOwn) throws Exception {
        List<Protocol> protocols = new ArrayList<>(StackChannels.quietProtocols(CLUSTER, node, port, seedPort));
        if (jgroupsOwn) {
            int i = protocols.indexOf(protocols.stream().filter(p -> p instanceof LinearFdSock).findFirst().orElseThrow());
            FD_SOCK2 linear = (FD_SOCK2) protocols.get(i);
            protocols.set(i, new FD_SOCK2().setBindAddress(linear.getBindAddress()).setOffset(linear.getOffset()).setPortRange(0));
        }
        JChannel channel = new JChannel(protocols);
        channels.add(channel);
        SuspicionsPassedUp above = new SuspicionsPassedUp();
        channel.getProtocolStack().insertProtocol(above, ProtocolStack.Position.ABOVE, FD_SOCK2.class);
        channel.name(node);
        channel.connect(CLUSTER);
        assertThat(channel.getProtocolStack().<FD_SOCK2>findProtocol(FD_SOCK2.class).getClass())
                .isEqualTo(jgroupsOwn ? FD_SOCK2.class : LinearFdSock.class);
        return new Member(channel, above.seen);
    }

    /** A member, and the suspicions its FD_SOCK2 passed up the stack (one list of suspects each). */
    private record Member(JChannel channel, List<List<Address>> suspicions) {
        Address address() {
            return channel.getAddress();
        }

        /** Multicasts a suspicion of {@code suspect} as FD_SOCK2 does: its header, sent from below it. */
        void suspectToEveryone(Address suspect) {
            FD_SOCK2 fd = channel.getProtocolStack().findProtocol(FD_SOCK2.class);
            FD_SOCK2.FdHeader header = new FD_SOCK2.FdHeader(FD_SOCK2.FdHeader.SUSPECT).mbrs(new ArrayList<>(List.of(suspect)));
            fd.getDownProtocol().down(new EmptyMessage().putHeader(fd.getId(), header));
        }
    }

    /** A test protocol for just above FD_SOCK2: keeps each SUSPECT event passed up, and passes everything on. */
    private static final class SuspicionsPassedUp extends Protocol {
        final List<List<Address>> seen = new CopyOnWriteArrayList<>();

        @Override
        @SuppressWarnings("unchecked")
        public Object up(Event evt) {
            if (evt.getType() == Event.SUSPECT) {
                seen.add(List.copyOf((Collection<Address>) evt.getArg()));
            }
            return up_prot.up(evt);
        }
    }
}
