package io.railmap.daemon.cluster;

import io.micrometer.core.instrument.MeterRegistry;
import io.railmap.daemon.cluster.config.ClusterConfig;
import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.cluster.stack.ClusterStack;
import io.railmap.daemon.cluster.stack.NodeAddresses;
import io.railmap.daemon.engine.Engine;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.UpHandler;
import org.jgroups.stack.Protocol;

/**
 * This daemon's member of the cluster: makes the JGroups channel, leaves, and answers the API's
 * queries ({@link #membership()}, {@link #agreement()}); every member holds every record. The work is
 * in one class per concern: {@link Sender} (the own record and holdings, batched on one thread),
 * {@link ViewChanges} (each view: newcomers, log lines), {@link Receiver} (records and holdings
 * heard) and {@link RepairRounds} (records lost on the way, {@link Repairs}); the rules of taking a
 * record are {@link RecordIntake}'s. The member's identity (its JGroups address's UUID) is the
 * engine's incarnation, which every own record carries.
 *
 * <p>Threads: JGroups' own (receiving, timers, its pool; idle ones end after 5 s) and one named
 * {@code railmap-cluster-send} ({@link Sender}); the queries never wait on the network. Every part
 * logs under this class's name, one line per event.
 */
public final class Cluster implements ClusterQueries, AutoCloseable {
    /** The logger of every part of the member: its lines say {@code Cluster}. */
    static final Logger LOG = System.getLogger(Cluster.class.getName());

    private final ClusterConfig config;
    private final Engine engine;
    private final ClusterMetrics metrics;
    private final RecordIntake intake;
    private final ClusterProtocol speaking;
    /** Changes the protocol list before the channel is made: identity in the daemon, a dropping protocol in tests. */
    private final UnaryOperator<List<Protocol>> stackChange;
    /** Called when the view or what a member holds changed: the agreement may have. */
    private final List<Runnable> changeListeners = new CopyOnWriteArrayList<>();
    private final LocalMember local = new LocalMember();
    private final Holdings holdings = new Holdings();
    /** Anti-entropy: which members are due this member's record again (a record lost on the way). */
    private final Repairs repairs = new Repairs(System::nanoTime);
    private final OwnHoldings own;
    private final Sender sender;
    private final RepairRounds repair;
    private final Receiver receiver;
    private final ViewChanges views;

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
        this.intake = new RecordIntake(engine, metrics, System::nanoTime, RecordIntake.MAX_RECORDS,
                RecordIntake.heldBytesFor(Runtime.getRuntime().maxMemory()), speaking);
        holder[0] = intake;
        this.own = new OwnHoldings(engine);
        Runnable changed = () -> changeListeners.forEach(Runnable::run);
        // the repair rounds hear of each holdings sent; they are made next, with the sender they schedule on
        this.sender = new Sender(local, engine, speaking, metrics, config.timing(), intake, own, this::holdingsSent);
        this.repair = new RepairRounds(local, sender, own, holdings, repairs, metrics, config.timing(), intake);
        this.receiver = new Receiver(local, intake, holdings, repair, speaking, changed);
        this.views = new ViewChanges(config, local, intake, holdings, repairs, receiver, sender, metrics, changed);
    }

    private void holdingsSent(Holdings.Held held) {
        repair.ownSent(held);
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
            JChannel channel = new JChannel(stackChange.apply(ClusterStack.protocols(config, w -> LOG.log(Level.WARNING, w))));
            local.channel(channel);
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
                sender.recordSoon();
            });
            engine.onChange(sender::holdingsSoon);
            channel.connect(config.cluster());
        } catch (IllegalArgumentException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot join cluster " + config.cluster() + " on " + config.address() + " (failure detection on port "
                    + config.failureDetectionPort() + "): " + rootMessage(e), e);
        }
        sender.recordSoon();
    }

    /** @return the message of the innermost cause, or its class when it has none */
    static String rootMessage(Throwable e) {
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
        Map<String, Address> byId = local.view().byId();
        return intake.membership(config.cluster(), id -> {
            Address a = byId.get(id);
            return a == null ? "?" : local.physical(a);
        });
    }

    /**
     * @return whether this member's channel is connected: false before {@link #start}, after
     *         {@link #close}, and whenever JGroups has disconnected it; never blocks
     */
    public boolean connected() {
        return local.connected() != null;
    }

    @Override
    public Optional<Agreement> agreement() {
        Holdings.Held held = own.held();
        Map<String, Holdings.Held> heard = holdings.all();
        List<Agreement.MemberHoldings> out = new ArrayList<>();
        boolean agreed = true;
        LocalMember.View view = local.view();
        Address self = local.self();
        for (Address a : view.order()) {
            boolean isSelf = a.equals(self);
            Optional<Holdings.Held> h = isSelf ? Optional.of(held) : Optional.ofNullable(heard.get(NodeAddresses.id(a)));
            boolean agrees = h.map(held::equals).orElse(false);
            agreed &= agrees;
            out.add(new Agreement.MemberHoldings(NodeAddresses.node(a), local.physical(a), isSelf, h.map(Holdings.Held::digest),
                    h.map(x -> OptionalInt.of(x.records())).orElse(OptionalInt.empty()), agrees));
        }
        return Optional.of(new Agreement(config.cluster(), view.id(), held.digest(), held.records(), agreed && !out.isEmpty(), out));
    }

    /** @return the cluster's meters */
    public ClusterMetrics metrics() {
        return metrics;
    }

    /** @return where received records and views go: the receive path below JGroups, for tests in this package */
    RecordIntake intake() {
        return intake;
    }

    /** Leaves the cluster (the others see it go at once) and stops; waits at most about the leave timeout. */
    @Override
    public void close() {
        sender.shutdown();
        JChannel ch = local.channel();
        if (ch != null) {
            ch.close();
        }
        sender.awaitStop();
    }

    /** What JGroups hands up: views and suspicions to {@link ViewChanges}, messages to {@link Receiver}. */
    private final class Handler implements UpHandler {
        @Override
        public UpHandler setLocalAddress(Address a) {
            local.self(a);
            return this;
        }

        @Override
        public Object up(Event evt) {
            switch (evt.getType()) {
                case Event.VIEW_CHANGE:
                    views.viewChanged(evt.getArg());
                    break;
                case Event.SUSPECT:
                    views.suspected(evt.getArg());
                    break;
                default:
                    break;
            }
            return null;
        }

        @Override
        public Object up(Message msg) {
            receiver.received(msg);
            return null;
        }
    }
}
