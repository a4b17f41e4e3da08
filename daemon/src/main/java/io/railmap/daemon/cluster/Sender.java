package io.railmap.daemon.cluster;

import io.railmap.daemon.cluster.config.ClusterTiming;
import io.railmap.daemon.engine.Engine;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;

/**
 * What this member sends: its record to every member whenever it changes, its holdings
 * ({@link Holdings}) to every member when the records held change, and both to the members new in a
 * view ({@link ViewChanges}); a burst of changes makes one send.
 *
 * <p>Threads: one, {@code railmap-cluster-send}, which also runs the repair checks
 * ({@link RepairRounds}), so that neither the event loop nor a JGroups thread ever waits on a send.
 */
final class Sender {
    private final LocalMember local;
    private final Engine engine;
    private final ClusterProtocol speaking;
    private final ClusterMetrics metrics;
    private final ClusterTiming timing;
    private final RecordIntake intake;
    private final OwnHoldings own;
    /** Told the holdings each time they are sent to every member (the repair rounds' own digest). */
    private final Consumer<Holdings.Held> holdingsSent;
    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "railmap-cluster-send");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean recordPending = new AtomicBoolean();
    private final AtomicBoolean holdingsPending = new AtomicBoolean();
    private final AtomicBoolean newcomersPending = new AtomicBoolean();
    /** Members new in a view that are still to be sent the record and holdings; bounded by the view. */
    private final Set<Address> newcomers = ConcurrentHashMap.newKeySet();
    /** Whether the line saying this node's record is too large was logged since it last fitted (the send thread's). */
    private boolean ownTooLargeLogged;
    private volatile String lastSendFailure;

    Sender(LocalMember local, Engine engine, ClusterProtocol speaking, ClusterMetrics metrics, ClusterTiming timing, RecordIntake intake,
            OwnHoldings own, Consumer<Holdings.Held> holdingsSent) {
        this.local = local;
        this.engine = engine;
        this.speaking = speaking;
        this.metrics = metrics;
        this.timing = timing;
        this.intake = intake;
        this.own = own;
        this.holdingsSent = holdingsSent;
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // a delayed holdings send dies with the member
    }

    /** Sends the own record to every member soon, on the send thread. */
    void recordSoon() {
        soon(recordPending, this::sendRecord, 0);
    }

    /**
     * Sends the holdings to every member: at once in a view of up to
     * {@value ClusterTiming#MEMBERS_PER_STEP} members, else after the view's heartbeat interval
     * ({@link ClusterTiming#forView}), so that the changes of that interval make one message. Every
     * record taken changes every member's holdings: while n members join, each would otherwise send
     * n messages per join.
     */
    void holdingsSoon() {
        soon(holdingsPending, this::sendHoldings, coalesceMs());
    }

    /** Sends the own record and holdings to each of {@code members} still in the view soon, one message each. */
    void toNewcomersSoon(Set<Address> members) {
        newcomers.addAll(members);
        soon(newcomersPending, this::sendToNewcomers, 0);
    }

    /**
     * @return how long a send that every record taken would otherwise repeat waits, in ms, so that
     *         the changes meanwhile make one: none in a view of up to
     *         {@value ClusterTiming#MEMBERS_PER_STEP} members, else the view's heartbeat interval
     */
    long coalesceMs() {
        int size = intake.size();
        return ClusterTiming.stretch(size) == 1 ? 0 : timing.forView(size).heartbeatIntervalMs();
    }

    /**
     * Runs {@code task} on the send thread after {@code delayMs} unless it is already pending:
     * changes meanwhile join the pending run. The task clears {@code pending} first.
     */
    void soon(AtomicBoolean pending, Runnable task, long delayMs) {
        if (pending.compareAndSet(false, true)) {
            try {
                thread.schedule(task, delayMs, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closing: nothing more is sent
            }
        }
    }

    private void sendRecord() {
        recordPending.set(false);
        JChannel ch = local.connected();
        if (ch != null) {
            send(ch, new BytesMessage(null, ownRecord()));
        }
    }

    private void sendHoldings() {
        holdingsPending.set(false);
        Holdings.Held held = own.held();
        holdingsSent.accept(held);
        JChannel ch = local.connected();
        if (ch == null) {
            return;
        }
        try {
            ch.send(new BytesMessage(null, Holdings.encode(held)).putHeader(HoldingsHeader.ID, new HoldingsHeader()));
        } catch (Exception e) {
            // the next change or view sends it again; a failing send is reported by the record's send
        }
    }

    private void sendToNewcomers() {
        newcomersPending.set(false);
        JChannel ch = local.connected();
        if (ch == null) {
            newcomers.clear();
            return;
        }
        List<Address> to = new ArrayList<>(newcomers);
        newcomers.removeAll(to);
        Set<Address> inView = Set.copyOf(local.view().order());
        byte[] record = ownRecord();
        byte[] held = Holdings.encode(own.held());
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
     * @return this node's record message; logs once while it is over {@link RecordMessages#MAX_BYTES}
     *         (every other daemon rejects it as {@link RejectReason#TOO_LARGE})
     */
    byte[] ownRecord() {
        byte[] message = RecordMessages.encode(engine.record(), speaking);
        boolean over = message.length > RecordMessages.MAX_BYTES;
        if (over && !ownTooLargeLogged) {
            Cluster.LOG.log(Level.WARNING, "this node's record message is " + message.length + " bytes, over the " + RecordMessages.MAX_BYTES
                    + " other daemons take: they reject it (railmap_cluster_records_rejected_total{reason=\"too-large\"} there);"
                    + " its ports hear " + engine.record().ports().stream().mapToInt(p -> p.neighbours().size()).sum()
                    + " far ends in all");
        }
        ownTooLargeLogged = over;
        return message;
    }

    /** Sends a record message, counting it, and logs a failure once until a send works again. */
    void send(JChannel ch, Message message) {
        try {
            ch.send(message);
            metrics.sent();
            if (lastSendFailure != null) {
                Cluster.LOG.log(Level.INFO, "sending the record works again");
                lastSendFailure = null;
            }
        } catch (Exception e) {
            String why = Cluster.rootMessage(e);
            if (!why.equals(lastSendFailure) && ch.isConnected()) {
                Cluster.LOG.log(Level.WARNING, "cannot send this node's record: " + why + " (sent again at the next change or view)");
            }
            lastSendFailure = why;
        }
    }

    /** Stops sending: a send under way finishes, none starts. */
    void shutdown() {
        thread.shutdown();
    }

    /** Waits at most a second for a send under way, then interrupts it. */
    void awaitStop() {
        try {
            if (!thread.awaitTermination(1, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.shutdownNow();
        }
    }
}
