package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.MeterRegistry;
import io.railmap.daemon.cluster.RecordIntake.ViewChange;
import io.railmap.daemon.cluster.RecordIntake.ViewMember;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.config.Seed;
import io.railmap.daemon.cluster.stack.ClusterStack;
import io.railmap.daemon.cluster.stack.NodeAddresses;
import io.railmap.daemon.engine.Engine;
import io.railmap.matrix.model.NodeRecord;
import io.railmap.matrix.model.Snapshot;
import io.railmap.matrix.provenance.Provenance;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.PhysicalAddress;
import org.jgroups.UpHandler;
import org.jgroups.View;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;

/**
 * This daemon's member of the cluster: a JGroups channel that sends the own record to every member
 * whenever it changes, and after a view change to the members that are new to it (the joiners, and
 * after a merge the members of the other partitions; to everyone when they are half the view or
 * more, and in this member's first view), and hands received records and views to
 * {@link RecordIntake}; and that tells members which records it holds ({@link Holdings}) in the same
 * way (every member when that changes, newcomers after a view), so that agreement can be asked
 * ({@link #agreement()}). A join to a cluster of n members thus makes about 2n record messages,
 * not n². A record message JGroups lost before taking it is repaired from the digests
 * ({@link Repairs}): a member whose digest has differed from this member's for the grace period is
 * sent this member's record again, once for that pair of digests, and every member its holdings. The member's
 * identity (its JGroups address's UUID) is the engine's incarnation, which every own record
 * carries. Logs one line per event: this member joining, a member joining, leaving or being
 * suspected, partitions merging, a node name claimed twice, a repair round (up to 3 members named
 * and their count); and once per member while it stays in the view: records rejected for a reason
 * (with the reason's detail: which field is malformed, which protocol versions each side speaks) and
 * records read from a newer protocol (what this daemon skipped).
 *
 * <p>Threads: JGroups' own (receiving, timers, its pool; idle ones end after 5 s) and one named
 * {@code railmap-cluster-send} that sends the own record and holdings and checks for repairs, so
 * that neither the event loop nor a JGroups thread ever waits on a send.
 */
public final class Cluster implements ClusterQueries, AutoCloseable {
    private static final Logger LOG = System.getLogger(Cluster.class.getName());

    private final ClusterConfig config;
    private final Engine engine;
    private final ClusterMetrics metrics;
    private final RecordIntake intake;
    /** Whether the line saying this node's record is too large was logged since it last fitted (the send thread's). */
    private boolean ownTooLargeLogged;
    private final ClusterProtocol speaking;
    private final ScheduledThreadPoolExecutor sender = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "railmap-cluster-send");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean sendPending = new AtomicBoolean();
    private final AtomicBoolean holdingsPending = new AtomicBoolean();
    private final AtomicBoolean newcomersPending = new AtomicBoolean();
    /** Members new in a view that are still to be sent the record and holdings; bounded by the view. */
    private final Set<Address> newcomers = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Holdings holdings = new Holdings();
    /** Anti-entropy: which members are due this member's record again (a record lost on the way). */
    private final Repairs repairs = new Repairs(System::nanoTime);
    /** The holdings of the last snapshot asked ({@link #held}). */
    private volatile HeldOf heldOf;
    /** The hash of each record held, kept between digests ({@link #held}). */
    private final Provenance.Digester digester = new Provenance.Digester();
    private final AtomicBoolean repairPending = new AtomicBoolean();
    /**
     * Members that sent a record this daemon already holds, still to be answered ({@link #answerSoon});
     * bounded by {@link Holdings#MAX_MEMBERS}.
     */
    private final Set<String> staleFrom = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final AtomicBoolean answerPending = new AtomicBoolean();
    /** Changes the protocol list before the channel is made: identity in the daemon, a dropping protocol in tests. */
    private final UnaryOperator<List<Protocol>> stackChange;
    /** Called when the view or what a member holds changed: the agreement may have. */
    private final List<Runnable> changeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The last view, its members by identity: one value, so that a reader never mixes two views. */
    private volatile Current current = Current.NONE;
    /** Member identity → what was logged about it (reject reasons, "newer"); only members of the view. */
    private final Map<String, Set<String>> complaints = new HashMap<>();
    private volatile String lastSendFailure;
    private Map<String, List<String>> lastDuplicates = Map.of();
    private JChannel channel;
    private volatile Address self;

    /**
     * The last view.
     *
     * @param order the members in view order; empty before the first view (a view always holds this member)
     * @param id    the view's number
     * @param byId  the members by identity ({@link NodeAddresses#id})
     */
    private record Current(List<Address> order, long id, Map<String, Address> byId) {
        static final Current NONE = new Current(List.of(), 0, Map.of());
    }

    /**
     * A member that speaks this version's protocol, or, when the system property
     * {@value ClusterProtocol#TEST_PROPERTY} is {@code next} (a test hook, logged as a warning), a
     * simulated next version ({@link ClusterProtocol#SIMULATED_NEXT}).
     *
     * @param config   where and how to be a member
     * @param engine   the owner of the records
     * @param registry where the cluster's meters go ({@link ClusterMetrics})
     * @throws IllegalArgumentException when that system property has another value
     */
    public Cluster(ClusterConfig config, Engine engine, MeterRegistry registry) {
        this(config, engine, registry, ClusterProtocol.fromSystemProperty());
    }

    /**
     * For benchmarks and tests: a member (speaking as {@link #Cluster(ClusterConfig, Engine, MeterRegistry)}
     * does) whose JGroups stack is changed before the channel is made, e.g. many members in one JVM over
     * JGroups' SHARED_LOOPBACK instead of TCP. A daemon never uses it.
     *
     * @param stackChange given {@link ClusterStack#protocols}, bottom first; returns the protocols to use
     */
    public Cluster(ClusterConfig config, Engine engine, MeterRegistry registry, UnaryOperator<List<Protocol>> stackChange) {
        this(config, engine, registry, ClusterProtocol.fromSystemProperty(), stackChange);
    }

    /** @param speaking the protocol versions this member reads and writes */
    Cluster(ClusterConfig config, Engine engine, MeterRegistry registry, ClusterProtocol speaking) {
        this(config, engine, registry, speaking, UnaryOperator.identity());
    }

    /**
     * For tests in this package: a member whose JGroups stack is changed before the channel is made
     * (e.g. a protocol that loses one message).
     *
     * @param stackChange given {@link ClusterStack#protocols}, bottom first; returns the protocols to use
     */
    Cluster(ClusterConfig config, Engine engine, MeterRegistry registry, ClusterProtocol speaking, UnaryOperator<List<Protocol>> stackChange) {
        this.stackChange = stackChange;
        this.config = config;
        this.engine = engine;
        this.speaking = speaking;
        RecordIntake[] holder = new RecordIntake[1];
        this.metrics = new ClusterMetrics(registry, () -> holder[0] == null ? 0 : holder[0].size());
        sender.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // a delayed holdings send dies with the member
        this.intake = new RecordIntake(engine, metrics, System::nanoTime, RecordIntake.MAX_RECORDS,
                RecordIntake.heldBytesFor(Runtime.getRuntime().maxMemory()), speaking);
        holder[0] = intake;
    }

    /**
     * Joins the cluster (or founds it): returns once this member has a view, after at most about
     * {@link ClusterTiming#joinTimeoutMs} when nobody answers, a little longer when a join is retried.
     *
     * @throws IllegalStateException naming the address when the channel cannot start, e.g. the
     *                               cluster port or the failure-detection port is in use
     * @throws IllegalArgumentException when seeds were given and none resolves
     */
    public void start() {
        try {
            channel = new JChannel(stackChange.apply(ClusterStack.protocols(config, w -> LOG.log(Level.WARNING, w))));
            channel.addAddressGenerator(NodeAddresses.generator(config.node(), engine.incarnation()));
            if (!speaking.equals(ClusterProtocol.THIS)) {
                LOG.log(Level.WARNING, "-D" + ClusterProtocol.TEST_PROPERTY + ": speaking a simulated protocol " + speaking.current()
                        + " (reads " + speaking.range() + ") with fields no railmapd knows; a test hook, never for a real cluster");
            }
            channel.name(config.node());
            channel.setDiscardOwnMessages(true);
            channel.setUpHandler(new Handler());
            HoldingsHeader.register();
            engine.onOwnRecord(r -> {
                intake.ownChanged();
                sendSoon();
            });
            engine.onChange(this::holdingsSoon);
            channel.connect(config.cluster());
        } catch (IllegalArgumentException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot join cluster " + config.cluster() + " on " + config.address() + " (failure detection on port "
                    + config.failureDetectionPort() + "): " + rootMessage(e), e);
        }
        sendSoon();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    /**
     * Registers a listener called (on a JGroups thread; it must not block) after each view and after
     * a member said what it holds: the membership or the agreement may have changed.
     *
     * @param listener the listener
     */
    public void onChange(Runnable listener) {
        changeListeners.add(listener);
    }

    @Override
    public Membership membership() {
        Map<String, Address> byId = current.byId();
        return intake.membership(config.cluster(), id -> {
            Address a = byId.get(id);
            return a == null ? "?" : physical(a);
        });
    }

    /**
     * @return whether this member's channel is connected: false before {@link #start}, after
     *         {@link #close}, and whenever JGroups has disconnected it; never blocks
     */
    public boolean connected() {
        JChannel ch = channel;
        return ch != null && ch.isConnected();
    }

    @Override
    public Optional<Agreement> agreement() {
        Holdings.Held own = held();
        Map<String, Holdings.Held> heard = holdings.all();
        List<Agreement.MemberHoldings> out = new ArrayList<>();
        boolean agreed = true;
        Current view = current;
        for (Address a : view.order()) {
            boolean isSelf = a.equals(self);
            Optional<Holdings.Held> h = isSelf ? Optional.of(own) : Optional.ofNullable(heard.get(NodeAddresses.id(a)));
            boolean agrees = h.map(own::equals).orElse(false);
            agreed &= agrees;
            out.add(new Agreement.MemberHoldings(NodeAddresses.node(a), physical(a), isSelf, h.map(Holdings.Held::digest),
                    h.map(x -> OptionalInt.of(x.records())).orElse(OptionalInt.empty()), agrees));
        }
        return Optional.of(new Agreement(config.cluster(), view.id(), own.digest(), own.records(), agreed && !out.isEmpty(), out));
    }

    /**
     * @return what this daemon holds now: digested once per snapshot, not at every ask (each record
     *         received again, each holdings sent, each agreement asked), and each record hashed once
     *         while it is held ({@link Provenance.Digester}): while n records arrive one by one, n
     *         digests of up to n records, not n² record hashes
     */
    private Holdings.Held held() {
        Snapshot snapshot = engine.snapshot();
        HeldOf last = heldOf;
        if (last != null && last.snapshot() == snapshot) {
            return last.held();
        }
        List<NodeRecord> records = snapshot.records();
        Holdings.Held held = new Holdings.Held(digester.digest(records), records.size());
        heldOf = new HeldOf(snapshot, held);
        return held;
    }

    /** What a snapshot holds: the engine's snapshots are immutable, one per change. */
    private record HeldOf(Snapshot snapshot, Holdings.Held held) {
    }

    /**
     * Sends the holdings to every member: at once in a view of up to
     * {@value ClusterTiming#MEMBERS_PER_STEP} members, else after the view's heartbeat interval
     * ({@link ClusterTiming#forView}), so that the changes of that interval make one message. Every
     * record taken changes every member's holdings: while n members join, each would otherwise send
     * n messages per join.
     */
    private void holdingsSoon() {
        soon(holdingsPending, this::sendHoldings, coalesceMs());
    }

    /**
     * @return how long a send that every record taken would otherwise repeat waits, in ms, so that
     *         the changes meanwhile make one: none in a view of up to
     *         {@value ClusterTiming#MEMBERS_PER_STEP} members, else the view's heartbeat interval
     */
    private long coalesceMs() {
        int size = intake.size();
        return ClusterTiming.stretch(size) == 1 ? 0 : config.timing().forView(size).heartbeatIntervalMs();
    }

    private void sendHoldings() {
        holdingsPending.set(false);
        Holdings.Held own = held();
        repairs.own(own.digest());
        repairSoon();
        JChannel ch = channel;
        if (ch == null || !ch.isConnected()) {
            return;
        }
        try {
            ch.send(new BytesMessage(null, Holdings.encode(own)).putHeader(HoldingsHeader.ID, new HoldingsHeader()));
        } catch (Exception e) {
            // the next change or view sends it again; a failing send is reported by the record's send
        }
    }

    /** @return the cluster's meters */
    public ClusterMetrics metrics() {
        return metrics;
    }

    /** @return where received records and views go: the receive path below JGroups, for tests in this package */
    RecordIntake intake() {
        return intake;
    }

    private void sendSoon() {
        soon(sendPending, this::sendNow);
    }

    /** Runs {@code send} on the sender thread unless it is already pending: a burst of changes makes one send. */
    private void soon(AtomicBoolean pending, Runnable send) {
        soon(pending, send, 0);
    }

    /** As {@link #soon(AtomicBoolean, Runnable)}, after {@code delayMs}; changes meanwhile join the pending send. */
    private void soon(AtomicBoolean pending, Runnable send, long delayMs) {
        if (pending.compareAndSet(false, true)) {
            try {
                sender.schedule(send, delayMs, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closing: nothing more is sent
            }
        }
    }

    private void sendNow() {
        sendPending.set(false);
        JChannel ch = channel;
        if (ch == null || !ch.isConnected()) {
            return;
        }
        send(ch, new BytesMessage(null, ownRecord()));
    }

    /**
     * @return this node's record message; logs once while it is over {@link RecordMessages#MAX_BYTES}
     *         (every other daemon rejects it as {@link RejectReason#TOO_LARGE})
     */
    private byte[] ownRecord() {
        byte[] message = RecordMessages.encode(engine.record(), speaking);
        boolean over = message.length > RecordMessages.MAX_BYTES;
        if (over && !ownTooLargeLogged) {
            LOG.log(Level.WARNING, "this node's record message is " + message.length + " bytes, over the " + RecordMessages.MAX_BYTES
                    + " other daemons take: they reject it (railmap_cluster_records_rejected_total{reason=\"too-large\"} there);"
                    + " its ports hear " + engine.record().ports().stream().mapToInt(p -> p.neighbours().size()).sum()
                    + " far ends in all");
        }
        ownTooLargeLogged = over;
        return message;
    }

    /** Sends a record message, counting it, and logs a failure once until a send works again. */
    private void send(JChannel ch, Message message) {
        try {
            ch.send(message);
            metrics.sent();
            if (lastSendFailure != null) {
                LOG.log(Level.INFO, "sending the record works again");
                lastSendFailure = null;
            }
        } catch (Exception e) {
            String why = rootMessage(e);
            if (!why.equals(lastSendFailure) && ch.isConnected()) {
                LOG.log(Level.WARNING, "cannot send this node's record: " + why + " (sent again at the next change or view)");
            }
            lastSendFailure = why;
        }
    }

    private String physical(Address member) {
        JChannel ch = channel;
        Object physical = ch == null ? null : ch.down(new Event(Event.GET_PHYSICAL_ADDRESS, member));
        if (physical instanceof IpAddress ip) {
            String host = ip.getIpAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + ip.getPort();
        }
        return physical instanceof PhysicalAddress p ? p.printIpAddress() : "?";
    }

    private String name(Address member) {
        return NodeAddresses.node(member).orElse(NodeAddresses.id(member));
    }

    private void viewChanged(View view) {
        List<Address> before = current.order();
        Map<String, Address> byId = new HashMap<>();
        List<ViewMember> list = new ArrayList<>();
        for (Address a : view.getMembers()) {
            byId.put(NodeAddresses.id(a), a);
            list.add(new ViewMember(NodeAddresses.id(a), NodeAddresses.node(a), physical(a), a.equals(self)));
        }
        current = new Current(List.copyOf(view.getMembers()), view.getViewId().getId(), Map.copyOf(byId));
        holdings.retain(byId.keySet());
        repairs.retain(byId.keySet());
        boolean merge = view instanceof MergeView;
        ViewChange change = intake.view(view.getViewId().getId(), list);
        metrics.view(merge);
        synchronized (complaints) {
            // a member is complained about once while it stays; one that left may come back (a merge)
            complaints.keySet().retainAll(byId.keySet());
        }
        log(view, change, merge, before.isEmpty());
        Set<Address> fresh = newcomers(before, view, self);
        if (before.isEmpty() || 2 * fresh.size() >= view.size() - 1) {
            sendSoon();
            holdingsSoon();
        } else if (!fresh.isEmpty()) {
            newcomers.addAll(fresh);
            soon(newcomersPending, this::sendToNewcomers);
        }
        changeListeners.forEach(Runnable::run);
    }

    /**
     * @return the members of {@code view} that may not hold this member's record: those not in the
     *         previous view and, after a merge, every member of a subgroup this member is not in
     *         (they were in another partition, whatever this member's previous view said: a member
     *         that was frozen still lists the others in its own subgroup while they dropped it, so
     *         they are in both); never this member
     */
    static Set<Address> newcomers(List<Address> before, View view, Address self) {
        Set<Address> out = new HashSet<>(view.getMembers());
        out.removeAll(before);
        if (view instanceof MergeView merge) {
            merge.getSubgroups().stream().filter(g -> !g.containsMember(self)).forEach(g -> out.addAll(g.getMembers()));
            out.retainAll(view.getMembers());
        }
        out.remove(self);
        return out;
    }

    /** Sends the own record and holdings to each pending newcomer still in the view, one message each. */
    private void sendToNewcomers() {
        newcomersPending.set(false);
        JChannel ch = channel;
        if (ch == null || !ch.isConnected()) {
            newcomers.clear();
            return;
        }
        List<Address> to = new ArrayList<>(newcomers);
        newcomers.removeAll(to);
        Set<Address> inView = Set.copyOf(current.order());
        byte[] record = ownRecord();
        byte[] held = Holdings.encode(held());
        for (Address a : to) {
            if (inView.contains(a)) {
                send(ch, new BytesMessage(a, record));
                try {
                    ch.send(new BytesMessage(a, held).putHeader(HoldingsHeader.ID, new HoldingsHeader()));
                } catch (Exception e) {
                    // as a record's send, which is reported
                }
            }
        }
    }

    /**
     * Checks for repairs ({@link Repairs}) after the grace period of the current view's timing
     * ({@link ClusterTiming#repairGraceMs}), unless a check is pending: called whenever this
     * member sends its digest or hears one, so that nothing is scheduled while nothing changes.
     */
    private void repairSoon() {
        soon(repairPending, this::repair, config.timing().forView(intake.size()).repairGraceMs());
    }

    /**
     * Sends this member's record, once per pair of digests, to each member whose digest has differed
     * from this member's for the grace period, and its holdings to every member; counts them and logs one line;
     * checks again when a differing pair is not yet due.
     */
    private void repair() {
        repairPending.set(false);
        JChannel ch = channel;
        if (ch == null || !ch.isConnected()) {
            return;
        }
        Holdings.Held own = held();
        repairs.own(own.digest());
        long graceMs = config.timing().forView(intake.size()).repairGraceMs();
        Current view = current;
        Repairs.Due due = repairs.due(TimeUnit.MILLISECONDS.toNanos(graceMs), view.byId().keySet());
        if (!due.members().isEmpty()) {
            byte[] record = ownRecord();
            Map<String, Holdings.Held> heard = holdings.all();
            List<String> named = new ArrayList<>();
            for (String id : due.members()) {
                Address a = view.byId().get(id);
                send(ch, new BytesMessage(a, record));
                Holdings.Held h = heard.get(id);
                named.add(name(a) + (h == null ? "" : " (" + h.records() + " records)"));
            }
            // the holdings to every member, not to each one due: this member's digests then reach each member in
            // the order sent (one member's multicasts stay in order), where a unicast could arrive after a newer
            // multicast digest and leave the receiver with a stale one for good (its pair already repaired)
            holdingsSoon();
            metrics.repaired(due.members().size());
            named.sort(null);
            int n = named.size();
            LOG.log(Level.INFO, "repair: " + n + (n == 1 ? " member holds" : " members hold") + " other records than this node ("
                    + own.records() + " records, " + own.digest().substring(0, 15) + "…) for " + graceMs / 1000.0 + " s or more: "
                    + String.join(", ", named.subList(0, Math.min(3, n))) + (n > 3 ? " and " + (n - 3) + " more" : "")
                    + "; sent " + (n == 1 ? "it" : "each") + " this node's record again and every member its holdings (railmap_cluster_repairs_total)");
        }
        due.nextNanos().ifPresent(ns -> soon(repairPending, this::repair, TimeUnit.NANOSECONDS.toMillis(ns) + 1));
    }

    /** @param first whether this is this member's first view */
    private void log(View view, ViewChange change, boolean merge, boolean first) {
        int size = view.size();
        String count = size + (size == 1 ? " member" : " members");
        String coordinator = name(view.getCoord());
        if (first) {
            LOG.log(Level.INFO, size == 1
                    ? "cluster " + config.cluster() + " founded by " + config.node() + " at " + config.address() + " (" + discovery() + ")"
                            + (config.discovery() == ClusterConfig.Discovery.SEEDS
                                    ? "; no seed answered (as expected for the first daemon; if seeds run, check they have the same --cluster and key)" : "")
                    : "joined cluster " + config.cluster() + " as " + config.node() + " at " + config.address() + ": " + count
                            + ", coordinator " + coordinator + " (" + discovery() + ")");
        } else if (merge) {
            String parts = ((MergeView) view).getSubgroups().stream()
                    .map(g -> g.getMembers().stream().map(this::name).sorted().collect(Collectors.joining(", ", "{", "}")))
                    .collect(Collectors.joining(" + "));
            LOG.log(Level.INFO, "partitions merged: " + parts + ": " + count + ", coordinator " + coordinator);
        } else {
            for (ViewMember m : change.joined()) {
                LOG.log(Level.INFO, "member " + m.node().orElse(m.id()) + " joined (" + m.address() + "): " + count);
            }
            for (ViewMember m : change.left()) {
                LOG.log(Level.INFO, "member " + m.node().orElse(m.id()) + " left"
                        + (change.dropped().contains(m.node().orElse("")) ? ", its record dropped" : "") + ": " + count);
            }
        }
        if (!change.duplicates().isEmpty() && !change.duplicates().equals(lastDuplicates)) {
            change.duplicates().forEach((node, addresses) -> LOG.log(Level.WARNING, "node " + node + " has " + addresses.size()
                    + " members (" + String.join(", ", addresses) + "): a restarted daemon not yet dropped, or two daemons given the same --node;"
                    + " its record is taken from the last, " + addresses.get(addresses.size() - 1) + ", the member that joined latest"));
        }
        lastDuplicates = change.duplicates();
    }

    private String discovery() {
        switch (config.discovery()) {
            case SEEDS:
                return "seeds " + config.seeds().stream().map(Seed::toString).collect(Collectors.joining(","));
            case MULTICAST:
                return "multicast discovery on " + config.multicastGroup() + " port " + ClusterConfig.MULTICAST_PORT;
            default:
                return "loopback only: no discovery";
        }
    }

    private void received(Message msg) {
        Address src = msg.getSrc();
        if (src == null) {
            return;
        }
        Optional<String> node = NodeAddresses.node(src);
        String id = NodeAddresses.id(src);
        if (msg.getHeader(HoldingsHeader.ID) != null) {
            Optional<Holdings.Held> held = msg.hasArray() ? Holdings.decode(msg.getArray(), msg.getOffset(), msg.getLength()) : Optional.empty();
            // kept even from a member not yet in this view: a newcomer is told once, possibly before its view arrives here
            held.ifPresent(h -> {
                holdings.heard(id, h);
                repairs.heard(id, h.digest());
                repairSoon();
                changeListeners.forEach(Runnable::run);
            });
            return;
        }
        RecordIntake.Receipt receipt = msg.hasArray()
                ? intake.receive(id, node, msg.getArray(), msg.getOffset(), msg.getLength())
                : intake.receive(id, node, new byte[0], 0, 0);
        if (receipt.rejected().filter(RejectReason.STALE::equals).isPresent()) {
            answerSoon(id);
        }
        receipt.rejected().ifPresentOrElse(reason -> complain(src, reason, receipt.why()), () -> receipt.sender()
                .filter(sender -> sender.current() > speaking.max() || !receipt.skipped().isEmpty())
                .ifPresent(sender -> newer(src, sender, receipt.skipped())));
    }

    /**
     * A member sent a record this daemon already holds: tells every member this daemon's holdings
     * ({@link #holdingsSoon}), once per sending member and digest ({@link Repairs#answer}). To every
     * member, as every holdings message after a change: a multicast keeps this daemon's digests in the
     * order it sent them, where an answer sent to one member could arrive after a newer digest. The
     * senders heard meanwhile are answered together, with one digest, after {@link #coalesceMs}:
     * around joins and merges every member sends its record to the members new to it, who may
     * already hold it, and a digest per record heard again (each a sort and a hash of every record
     * held, and the records held change between them) was a fifth, and answered at once still a
     * third, of the CPU of 1,024 members in one JVM.
     */
    private void answerSoon(String id) {
        if (staleFrom.size() < Holdings.MAX_MEMBERS) {
            staleFrom.add(id);
        }
        soon(answerPending, this::answer, coalesceMs());
    }

    private void answer() {
        answerPending.set(false);
        List<String> from = new ArrayList<>(staleFrom);
        staleFrom.removeAll(from);
        String digest = held().digest();
        boolean any = false;
        for (String id : from) {
            any |= repairs.answer(id, digest);
        }
        if (any) {
            holdingsSoon();
        }
    }

    /** @return whether this is the first line of this kind about a member of the view (never for a non-member: bounded by the view) */
    private boolean firstTime(Address src, String what) {
        String id = NodeAddresses.id(src);
        synchronized (complaints) {
            return current.byId().containsKey(id) && complaints.computeIfAbsent(id, k -> new HashSet<>()).add(what);
        }
    }

    private void complain(Address src, RejectReason reason, String why) {
        if (reason == RejectReason.STALE || reason == RejectReason.NOT_MEMBER || reason == RejectReason.SUPERSEDED) {
            return; // expected around every view change and restart
        }
        if (firstTime(src, reason.tag())) {
            LOG.log(Level.WARNING, "rejected a " + reason.tag() + " record from member " + name(src) + " (" + physical(src) + ")"
                    + (why.isEmpty() ? "" : ": " + why) + "; further ones from it are only counted while it stays a member"
                    + " (railmap_cluster_records_rejected_total{reason=\"" + reason.tag() + "\"})");
        }
    }

    private void newer(Address src, ClusterProtocol sender, List<String> skipped) {
        if (firstTime(src, "newer")) {
            LOG.log(Level.INFO, "member " + name(src) + " (" + physical(src) + ") writes protocol " + sender.current() + " (knows "
                    + sender.range() + "); this daemon reads " + speaking.range() + " and takes its records without what it does not know"
                    + (skipped.isEmpty() ? "" : ": " + String.join("; ", skipped)));
        }
    }

    private void suspected(Object arg) {
        Collection<?> suspects = arg instanceof Collection<?> c ? c : List.of(arg);
        for (Object s : suspects) {
            if (s instanceof Address a) {
                metrics.suspected();
                LOG.log(Level.INFO, "member " + name(a) + " suspected (" + physical(a) + ")");
            }
        }
    }

    /** Leaves the cluster (the others see it go at once) and stops; waits at most about the leave timeout. */
    @Override
    public void close() {
        sender.shutdown(); // a send under way finishes; none starts
        JChannel ch = channel;
        if (ch != null) {
            ch.close();
        }
        try {
            if (!sender.awaitTermination(1, TimeUnit.SECONDS)) {
                sender.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sender.shutdownNow();
        }
    }

    private final class Handler implements UpHandler {
        @Override
        public UpHandler setLocalAddress(Address a) {
            self = a;
            return this;
        }

        @Override
        public Object up(Event evt) {
            switch (evt.getType()) {
                case Event.VIEW_CHANGE:
                    viewChanged(evt.getArg());
                    break;
                case Event.SUSPECT:
                    suspected(evt.getArg());
                    break;
                default:
                    break;
            }
            return null;
        }

        @Override
        public Object up(Message msg) {
            received(msg);
            return null;
        }
    }
}
