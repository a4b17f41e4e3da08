package io.railmap.daemon.cluster.stack;

import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterKey;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MPING;
import org.jgroups.protocols.SERIALIZE;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.TCP_NIO2;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/**
 * The JGroups protocol stack of one member, built in code from a {@link ClusterConfig}: only
 * JGroups' own protocols, configured. Bottom (the wire) to top:
 * <pre>
 * TCP_NIO2         cluster traffic on bind:port (no port drift: port_range 0), small per-member buffers,
 *                  one selector thread for all connections
 * SYM_ENCRYPT      with a key only: ChaCha20-Poly1305 with a key derived from the shared secret
 * SERIALIZE        with a key only: the whole message, headers included, becomes the encrypted payload
 * TCPPING | MPING  discovery: the seeds (AddressAnsweringPing: TCPPING that also answers for the members whose
 *                  addresses it knows), or UDP multicast on the management interface (hop limit 1)
 * MERGE3           finds other partitions of the same cluster and merges them
 * FD_SOCK2         failure detection by TCP connection to the next member, on bind:port+100 (LinearFdSock: a
 *                  suspicion heard costs linear time)
 * FD_ALL3          failure detection by heartbeats
 * TimingByView     above 32 members, stretches heartbeats, merge rounds and retransmission with the view
 *                  (ClusterTiming.forView)
 * VERIFY_SUSPECT2  asks a suspect once more before it is dropped
 * NAKACK2          reliable, ordered multicast (no IP multicast: use_mcast_xmit off; PacedNakack: its retransmit
 *                  interval can change while it runs)
 * UNICAST3         reliable unicast
 * STABLE           garbage-collects messages every member has (rounds stretched in large views by TimingByView)
 * GMS              membership: joins, leaves, views, merges (LinearMembershipPolicy: JGroups' rules in linear time)
 * FRAG2            fragments messages above 15 KB (a record is a few KB)
 * </pre>
 * With a key, a daemon without it cannot join: its JOIN request, like every message it sends, fails
 * authentication and is dropped below discovery, so it ends up a cluster of its own. Multicast
 * discovery requests (MPING) leave on a socket of their own, unencrypted; they only say "cluster C
 * is looking", and every answer is encrypted. FD_SOCK2's connections carry no records.
 *
 * <p>JGroups' diagnostics socket (UDP 7500) stays off: {@code new JChannel(List<Protocol>)} turns it
 * off, and nothing here turns it on.
 */
public final class ClusterStack {
    /**
     * Largest bundle of messages sent at once to one member, in bytes: the size of the bundler's one
     * output buffer (a smaller one was tried: docs/decisions.md, "Daemon: cluster and probe").
     */
    static final int BUNDLE_BYTES = 16_000;
    /**
     * Messages waiting in the bundler, for every destination together, before it drops (retransmission
     * recovers them): a ring buffer allocated whole, 16 KB per member. A multicast is one message here
     * whatever the view's size; what comes in bursts is a record and holdings to each newcomer (2,000
     * messages when a thousand join at once).
     */
    static final int BUNDLER_QUEUE = 4_096;
    /** How many messages the bundler takes off its queue at once: an array allocated whole, 1 KB. */
    static final int BUNDLER_DRAIN = 256;
    /** FRAG2's fragment size in bytes: below the bundle size, as JGroups requires. */
    static final int FRAGMENT_BYTES = 15_000;
    /**
     * The largest message a connection may announce, in bytes; a longer one is refused before anything
     * of its length is allocated (JGroups logs one warning per refused message and keeps the
     * connection open: MessageLengthWireTest).
     */
    static final int MAX_MESSAGE_BYTES = 4 << 20;
    /**
     * Messages per row of NAKACK2's and UNICAST3's retransmission tables (JGroups' default 1,000, 10 rows
     * rather than 100 to start with): a member keeps a table per member for multicasts, and its first row
     * is allocated whole. Records are few and rare, so a row of 100 (400 bytes) rarely fills, and a full
     * table grows by rows as before (docs/benchmarks.md, "At scale", has the heap it saves).
     */
    static final int RETRANSMIT_ROW = 100;
    /** Discovery requests per join timeout. */
    static final int DISCOVERY_RUNS = 3;

    private ClusterStack() {
    }

    /**
     * @param config what the member is told
     * @param warnings receives one sentence per seed that does not resolve
     * @return the protocols, bottom first, ready for {@code new JChannel(list)}
     * @throws IllegalArgumentException when seeds were given and none resolves
     */
    public static List<Protocol> protocols(ClusterConfig config, java.util.function.Consumer<String> warnings) {
        ClusterTiming t = config.timing();
        List<Protocol> stack = new ArrayList<>();

        // TCP_NIO2, not TCP: one selector thread reads every connection, where TCP has a thread per
        // connection (on Java 17 a platform thread: n members on one machine would need n² threads).
        TCP_NIO2 tcp = new TCP_NIO2();
        tcp.setBindAddress(config.bind());
        tcp.setBindPort(config.port());
        tcp.setPortRange(0);
        tcp.setSockConnTimeout((int) t.connectTimeoutMs());
        // Records are small and rare: send each at once rather than wait for more (Nagle).
        tcp.tcpNodelay(true);
        // Memory per member: one bundler queue and output buffer for every destination (JGroups'
        // TransferQueueBundler, kept by ViewBoundBundler from holding a list for every member that
        // ever was), where the per-destination bundler keeps an output buffer of the bundle's size
        // (16 KB) and a drain array for every member it sent a unicast to: 16 MB of a daemon's heap at
        // 1,000 members. One sender thread never waits on one member: TCP_NIO2 connects and writes
        // without blocking (a write that does not complete waits in its connection's queue). The
        // transport keeps a read buffer per connection (TCP_NIO2: 1 KB, grown to the largest message
        // read) and at most 10 queued writes. Records are a few KB and rare; heartbeats are tiny.
        ViewBoundBundler bundler = new ViewBoundBundler();
        bundler.removeQueueCapacity(BUNDLER_DRAIN);
        tcp.setBundler(bundler.setCapacity(BUNDLER_QUEUE).setMaxSize(BUNDLE_BYTES));
        // read buffers on the heap, so that -Xmx bounds them (each grows to the largest message read)
        tcp.useDirectMemory(false);
        // A message's length prefix is read before it is decrypted: without a bound, anyone who can reach
        // the port could announce a 2 GB message and make this member allocate it. Join responses, the
        // largest legitimate messages (not fragmented), are a few hundred KB at 4,096 members.
        tcp.setMaxLength(MAX_MESSAGE_BYTES);
        // one log line when a connection closes, not a stack trace
        tcp.logDetails(false);
        // The pool grows with load and shrinks back to nothing when idle.
        tcp.getThreadPool().setMinThreads(0).setKeepAliveTime(5_000);
        stack.add(tcp);

        if (config.key().isPresent()) {
            SYM_ENCRYPT encrypt = new SYM_ENCRYPT();
            encrypt.setSecretKey(config.key().get().secretKey());
            // set after the key: setSecretKey replaces the algorithm with the key's ("ChaCha20")
            encrypt.symAlgorithm(ClusterKey.CIPHER);
            encrypt.symIvLength(ClusterKey.NONCE_BYTES);
            // Nonces from a generator of this member's own: JGroups' default, new SecureRandom(), is
            // NativePRNG on Linux, whose reads of /dev/urandom share one lock in the JVM; under load
            // every sending thread of every member queued on it (seen with 64 members in a JVM).
            encrypt.secureRandom(nonces());
            stack.add(encrypt);
            stack.add(new SERIALIZE());
        }

        switch (config.discovery()) {
            case SEEDS:
                stack.add(tcpPing(resolve(config.seeds(), warnings)));
                break;
            case MULTICAST:
                MPING mping = new MPING();
                mping.setBindAddr(config.bind());
                mping.setMcastAddr(group(config.multicastGroup()));
                mping.setMcastPort(ClusterConfig.MULTICAST_PORT);
                // This LAN only: routers do not forward the discovery datagrams.
                mping.setTTL(1);
                stack.add(discoveryRuns(mping));
                break;
            default:
                stack.add(tcpPing(List.of()));
                break;
        }

        MERGE3 merge = new MERGE3();
        merge.setMinInterval(t.mergeMinIntervalMs());
        merge.setMaxInterval(t.mergeMaxIntervalMs());
        stack.add(merge);

        // FD_SOCK2 whose handling of a suspicion is linear in the view
        FD_SOCK2 fdSock = new LinearFdSock();
        fdSock.setBindAddress(config.bind());
        fdSock.setOffset(ClusterConfig.FAILURE_DETECTION_OFFSET);
        fdSock.setPortRange(0);
        // TimingByView stretches it in large views; set here so that both start from one value
        fdSock.setSuspectMsgInterval(TimingByView.SUSPECT_RESEND_MS);
        stack.add(fdSock);

        FD_ALL3 heartbeats = new FD_ALL3();
        heartbeats.setInterval(t.heartbeatIntervalMs());
        heartbeats.setTimeout(t.heartbeatTimeoutMs());
        stack.add(heartbeats);
        // above FD_ALL3, so that it sees each view first: slower heartbeats and merge rounds in large views
        stack.add(new TimingByView(t));

        stack.add(new VERIFY_SUSPECT2().setTimeout(t.verifyTimeoutMs()));

        // NAKACK2 whose retransmit interval TimingByView can change with the view
        PacedNakack nakack = new PacedNakack();
        nakack.useMcastXmit(false);
        nakack.setXmitInterval(t.retransmitIntervalMs());
        // Messages from members that just left are expected around every view change.
        nakack.logDiscardMessages(false);
        // Memory per member held for each other member: NAKACK2 keeps a delivery batch per sender of at
        // least 2,048 slots (8 KB) when it reuses batches, 8 MB at 1,000 members; records are rare, so a
        // batch made per delivery costs nothing worth keeping that for. Rows: RETRANSMIT_ROW.
        nakack.setXmitTableNumRows(10).setXmitTableMsgsPerRow(RETRANSMIT_ROW).reuseMessageBatches(false);
        stack.add(nakack);
        stack.add(new UNICAST3().setXmitInterval(t.retransmitIntervalMs())
                .setXmitTableNumRows(10).setXmitTableMsgsPerRow(RETRANSMIT_ROW).reuseMessageBatches(false));
        // TimingByView stretches it in large views; set here so that both start from one value
        stack.add(new STABLE().setDesiredAverageGossip(TimingByView.STABILITY_ROUND_MS));

        GMS gms = new GMS();
        // JGroups' own membership rules in linear time: they run at every suspicion, not only at every view
        gms.setMembershipChangePolicy(new LinearMembershipPolicy());
        gms.setJoinTimeout(t.joinTimeoutMs());
        gms.setLeaveTimeout(t.leaveTimeoutMs());
        gms.setViewAckCollectionTimeout(t.viewAckTimeoutMs());
        // JGroups would print these to standard output; the daemon logs its own line.
        gms.printLocalAddress(false);
        gms.printPhysicalAddress(false);
        gms.printViewDetails(false);
        stack.add(gms);

        FRAG2 frag = new FRAG2();
        frag.setFragSize(FRAGMENT_BYTES);
        stack.add(frag);
        return stack;
    }

    /** @return a DRBG (NIST SP 800-90A, seeded by the JDK from the system's entropy) for one member's nonces */
    private static SecureRandom nonces() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK since 9 has DRBG", e);
        }
    }

    private static TCPPING tcpPing(List<InetSocketAddress> hosts) {
        // TCPPING that also answers a member asking for other members' addresses (after a merge)
        TCPPING ping = new AddressAnsweringPing();
        ping.setPortRange(0);
        ping.setInitialHosts(hosts);
        // Besides the seeds, TCPPING asks every member it has learned of (up to 2,000) in each merge
        // round: a request, an answer and MERGE3's INFO per member, 3n messages per member per round.
        // The seeds hear from every member, so they see every partition; the last 32 members learned
        // (every member of a cluster of that size) are enough besides.
        ping.setValue("max_dynamic_hosts", ClusterTiming.MEMBERS_PER_STEP);
        return discoveryRuns(ping);
    }

    /**
     * Asks {@value #DISCOVERY_RUNS} times within one join timeout instead of once: when daemons
     * start together, one of them becomes coordinator during the others' discovery, and a later ask
     * finds it at once instead of after another whole join timeout.
     */
    private static <T extends org.jgroups.protocols.Discovery> T discoveryRuns(T discovery) {
        discovery.numDiscoveryRuns(DISCOVERY_RUNS);
        return discovery;
    }

    /**
     * @return the seeds that resolve, in order
     * @throws IllegalArgumentException when none resolves
     */
    static List<InetSocketAddress> resolve(List<Seed> seeds, java.util.function.Consumer<String> warnings) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (Seed seed : seeds) {
            try {
                out.add(new InetSocketAddress(InetAddress.getByName(seed.host()), seed.port()));
            } catch (UnknownHostException e) {
                warnings.accept("seed " + seed + " does not resolve; leaving it out");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--seeds: none of " + seeds + " resolves");
        }
        return out;
    }

    private static InetAddress group(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("the multicast group " + literal + " is a literal and always parses", e);
        }
    }
}
