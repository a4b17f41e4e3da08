package io.railmap.daemon.probe;

import io.micrometer.core.instrument.MeterRegistry;
import io.railmap.matrix.model.NaturalOrder;
import io.railmap.matrix.model.PortRef;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The link-local neighbour probe of one daemon: a verticle that sends hellos on every probed port
 * and learns, from the hellos it hears, who is at the far end of each port's cable.
 *
 * <p>Deploy it on the daemon's {@code Vertx} (which must use the NIO transport, the default), then
 * tell it which ports to probe with {@link #portUp(ProbePort)} and {@link #portDown(String)}, from
 * any thread, as ports are selected, gain or lose carrier. Undeploying it (or closing Vert.x) sends a
 * goodbye on every port, so that peers forget this node at once.
 *
 * <p>Sockets. One receiving socket is bound to {@code [::]:udpPort} and joins the group on each
 * probed port. Each port also has a sending socket whose outgoing multicast interface is that port.
 * The arrival port of a datagram is named by its sender's IPv6 scope id (see {@link ProbeIntake}):
 * a socket joined on several interfaces, or several sockets bound to the wildcard address, all see
 * every interface's datagrams, so the socket says nothing about the port. Vert.x 5.0 resolves bind
 * and destination addresses with its own DNS resolver, which refuses scoped literals such as
 * {@code ff02::7261:696c%en6}, so sockets cannot be bound to one interface; the scope id is what
 * remains, and is exact.
 *
 * <p>Threads. Sockets, timers and the neighbour table live on the verticle's event loop; the only
 * blocking step (looking a port up in the kernel) runs on a worker. Listeners are called on the
 * event loop and must not block. Queries return immutable snapshots and may be called from any
 * thread.
 */
public final class ProbeService extends VerticleBase {
    private static final Logger LOG = System.getLogger(ProbeService.class.getName());
    /** How often this machine's addresses are read again (also whenever a port comes up), in ms. */
    static final long ADDRESS_REFRESH_MS = 5_000;
    /**
     * Logged once at start, as a warning, by a probe without a cluster key: what anyone can then do
     * (PROBE.md, "Threat model", quotes it).
     */
    static final String KEYLESS_WARNING = "no cluster key: hellos are NOT authenticated, so any user of this node"
            + " (sending from a link-local address that is not this machine's, which Linux allows without root)"
            + " and any host on a cable can forge or replay far ends, and so cables that do not exist;"
            + " give every daemon --cluster-key-file (PROBE.md, \"Threat model\")";

    private final ProbeConfig config;
    private final ProbeMetrics metrics;
    private final ProbeIntake intake;
    private final List<Consumer<NeighbourEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, PortSender> ports = new HashMap<>();
    private final Map<String, Future<Void>> changes = new HashMap<>();
    private volatile Map<String, List<PortRef>> view = Map.of();
    private volatile Set<String> probed = Set.of();
    private DatagramSocket receiver;
    /** The one timer that sweeps the table when its first far end expires; -1 when none is set. */
    private long sweeper = -1;
    /** When {@link #sweeper} fires, in ms on {@link #nowMs()}'s clock; {@code Long.MAX_VALUE} when none is set. */
    private long sweepAtMs = Long.MAX_VALUE;
    private long addressRefresher = -1;
    private long seq;
    private boolean stopping;

    /**
     * @param config   who this daemon is, the group, port and timing
     * @param registry where the counters of {@link ProbeMetrics} are registered
     */
    public ProbeService(ProbeConfig config, MeterRegistry registry) {
        this.config = Objects.requireNonNull(config, "config");
        this.metrics = new ProbeMetrics(registry);
        this.intake = new ProbeIntake(config, metrics);
    }

    /**
     * Adds a listener for neighbour events. Listeners run on the event loop, in the order added,
     * after the event is logged; an exception from one is logged and does not reach the others.
     *
     * @param listener called once per event
     * @return this
     */
    public ProbeService addListener(Consumer<NeighbourEvent> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Opens the receiving socket and starts sweeping expired far ends. Called by Vert.x on deploy.
     *
     * @return fails when Vert.x runs a native transport (see the class comment) or the UDP port
     *         cannot be bound
     */
    @Override
    public Future<?> start() {
        if (vertx.isNativeTransportEnabled()) {
            return Future.failedFuture(new IllegalStateException("the neighbour probe needs Vert.x's NIO transport:"
                    + " on a native transport Vert.x 5 does not set a datagram socket's outgoing multicast interface,"
                    + " so every hello would leave by one port"));
        }
        // No SO_REUSEADDR: while the daemon runs, no other process (an unprivileged local user) can bind
        // the probe port beside it and read the hellos that arrive over the cables.
        receiver = vertx.createDatagramSocket(new DatagramSocketOptions().setIpV6(true).setReuseAddress(false));
        receiver.handler(this::onPacket);
        receiver.exceptionHandler(e -> LOG.log(Level.WARNING, () -> "probe receiving socket: " + e));
        return refreshLocalAddresses()
                .compose(v -> receiver.listen(config.udpPort(), "::"))
                .onSuccess(s -> {
                    addressRefresher = vertx.setPeriodic(ADDRESS_REFRESH_MS, id -> refreshLocalAddresses());
                    LOG.log(Level.INFO, () -> "probe listening on [" + config.group() + "]:" + config.udpPort() + " as "
                            + config.node() + " of cluster " + config.cluster() + ", incarnation " + config.incarnation()
                            + (config.key().isPresent() ? ", hellos authenticated with the cluster key" : ""));
                    if (config.key().isEmpty()) {
                        LOG.log(Level.WARNING, KEYLESS_WARNING);
                    }
                });
    }

    /**
     * Sends a goodbye (TTL 0) on every probed port and closes all sockets. Called by Vert.x on
     * undeploy and on {@code Vertx.close()}.
     *
     * @return completes once the goodbyes were handed to the kernel and the sockets closed
     */
    @Override
    public Future<?> stop() {
        stopping = true;
        vertx.cancelTimer(sweeper);
        vertx.cancelTimer(addressRefresher);
        List<Future<Void>> closing = new ArrayList<>();
        ports.values().forEach(p -> closing.add(p.close(true)));
        ports.clear();
        probed = Set.of();
        LOG.log(Level.INFO, () -> "probe stopping: goodbye sent on " + closing.size() + " port(s)");
        return Future.join(closing).eventually(() -> receiver == null ? Future.succeededFuture() : receiver.close());
    }

    /**
     * Starts probing a port: joins the group on it and sends hellos, fast at first. Does nothing if
     * the port is already probed under the same interface index and address. Thread-safe; call it
     * once the verticle is deployed.
     *
     * @param port the port; it must exist and have an IPv6 link-local address
     * @return completes once the first hello is on its way; fails with
     *         {@link IllegalStateException} when the port does not exist, has no link-layer address,
     *         no multicast or no IPv6 link-local address (yet), or the probe is not deployed or is
     *         stopping, and with the socket's error when the group cannot be joined. Changes of one
     *         port ({@code portUp}, {@code portDown}) take effect in the order they were called
     */
    public Future<Void> portUp(ProbePort port) {
        Objects.requireNonNull(port, "port");
        return onContext(() -> serially(port.netdev(),
                () -> context.executeBlocking(() -> ProbeInterface.lookup(port), false).compose(this::open)));
    }

    /**
     * Stops probing a port, because it lost carrier or is no longer selected: forgets what it
     * heard (one {@link LossCause#CARRIER} event per far end), sends a goodbye if the link still
     * carries one, leaves the group on it. Does nothing for a port that is not probed. Thread-safe.
     *
     * @param netdev the port's netdev
     * @return completes once the port's socket is closed; fails only with
     *         {@link IllegalStateException} when the probe is not deployed
     */
    public Future<Void> portDown(String netdev) {
        Objects.requireNonNull(netdev, "netdev");
        return onContext(() -> serially(netdev, () -> close(netdev)));
    }

    /**
     * @return the far ends each probed port hears, as {@link NeighbourTable#view()}: ports in
     *         natural order, far ends sorted, ports that hear nothing absent; a snapshot
     */
    public Map<String, List<PortRef>> neighbours() {
        return view;
    }

    /** @return the netdevs being probed, sorted; a snapshot */
    public Set<String> probedPorts() {
        return probed;
    }

    /** @return the probe's counters */
    public ProbeMetrics metrics() {
        return metrics;
    }

    private Future<Void> open(ProbeInterface local) {
        if (stopping) {
            return Future.failedFuture(new IllegalStateException("port " + local.netdev() + ": the probe is stopping"));
        }
        PortSender known = ports.get(local.netdev());
        if (known != null && known.local().equals(local)) {
            return Future.succeededFuture();
        }
        Future<Void> before = known == null ? Future.succeededFuture() : close(local.netdev());
        return before.compose(v -> {
            PortSender sender = new PortSender(vertx, config, metrics, local, () -> ++seq);
            ports.put(local.netdev(), sender);
            intake.portUp(local.netdev(), local.ifindex());
            return join(local.netdev()).compose(joined -> {
                if (ports.get(local.netdev()) != sender) {
                    // stop() ran while the group was being joined; closing the receiver leaves it.
                    return Future.failedFuture(new IllegalStateException("port " + local.netdev()
                            + ": the probe stopped while the port was coming up"));
                }
                try {
                    sender.open();
                } catch (RuntimeException e) { // e.g. the interface vanished since it was looked up
                    return abandon(local.netdev(), sender, e).eventually(() -> leave(local.netdev()));
                }
                refresh();
                refreshLocalAddresses();
                LOG.log(Level.INFO, () -> "probing " + local.netdev() + " (interface " + local.ifindex() + ", "
                        + local.mac() + local.port().rdma().map(r -> ", " + r).orElse("") + ")");
                return Future.<Void>succeededFuture();
            }, failed -> abandon(local.netdev(), sender, failed));
        });
    }

    /** Undoes a port that could not come up; fails with the cause. */
    private Future<Void> abandon(String netdev, PortSender sender, Throwable cause) {
        if (ports.remove(netdev, sender)) {
            refresh();
            publish(intake.portDown(netdev));
        }
        return Future.failedFuture(cause);
    }

    private Future<Void> close(String netdev) {
        PortSender sender = ports.remove(netdev);
        refresh();
        publish(intake.portDown(netdev));
        if (sender == null) {
            return Future.succeededFuture();
        }
        LOG.log(Level.INFO, () -> "no longer probing " + netdev);
        return sender.close(true).eventually(() -> leave(netdev));
    }

    /** Joins the group on a port; if the kernel says it already is (a leave that failed), leaves and joins again. */
    private Future<Void> join(String netdev) {
        return receiver.listenMulticastGroup(config.group(), netdev, null)
                .recover(e -> leave(netdev).compose(v -> receiver.listenMulticastGroup(config.group(), netdev, null)));
    }

    /** Leaves the group on a port; never fails (the interface may be gone, which leaves it anyway). */
    private Future<Void> leave(String netdev) {
        try {
            return receiver.unlistenMulticastGroup(config.group(), netdev, null)
                    .onFailure(e -> LOG.log(Level.DEBUG, () -> "leaving the probe group on " + netdev + ": " + e))
                    .otherwiseEmpty();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, () -> "leaving the probe group on " + netdev + ": " + e);
            return Future.succeededFuture();
        }
    }

    /**
     * Reads every address of every interface of this network namespace (off the event loop) and
     * hands them to the intake, which drops datagrams from them as looped back.
     */
    private Future<Void> refreshLocalAddresses() {
        return context.executeBlocking(() -> {
            List<InetAddress> all = new ArrayList<>();
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.addAll(Collections.list(nif.getInetAddresses()));
            }
            return all;
        }, false).onSuccess(intake::localAddresses)
                .onFailure(e -> LOG.log(Level.WARNING, () -> "cannot list this machine's addresses: " + e.getMessage()))
                .mapEmpty();
    }

    private void onPacket(DatagramPacket packet) {
        publish(intake.accept(packet.sender().hostAddress(), packet.data().getBytes(), nowMs()));
        armSweep();
    }

    /**
     * Sets the sweep to when the table's first far end expires, unless one is set no later: a
     * far end is forgotten at its expiry, and an idle probe whose far ends keep being heard wakes
     * about once per TTL rather than at a fixed period. On the event loop.
     */
    private void armSweep() {
        long next = intake.nextExpiryMs();
        if (stopping || next >= sweepAtMs) {
            return;
        }
        vertx.cancelTimer(sweeper);
        sweepAtMs = next;
        sweeper = vertx.setTimer(Math.max(1, next - nowMs()), id -> {
            sweepAtMs = Long.MAX_VALUE;
            publish(intake.expire(nowMs()));
            armSweep();
        });
    }

    /** Hands what changed in the table to the listeners (and logs it); nothing when nothing changed. */
    private void publish(List<NeighbourEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        refresh();
        for (NeighbourEvent event : events) {
            int heard = view.getOrDefault(event.port(), List.of()).size();
            String segment = heard > 1 && !(event instanceof NeighbourEvent.Lost)
                    ? "; " + event.port() + " hears " + heard + " far ends: a shared segment" : "";
            LOG.log(Level.INFO, () -> event.describe() + segment);
            if (!(event instanceof NeighbourEvent.Lost)) {
                PortSender sender = ports.get(event.port());
                if (sender != null) {
                    sender.restartFastStart();
                }
            }
            for (Consumer<NeighbourEvent> listener : listeners) {
                try {
                    listener.accept(event);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "a neighbour event listener failed", e);
                }
            }
        }
    }

    private void refresh() {
        view = intake.view();
        Set<String> names = new TreeSet<>(NaturalOrder.INSTANCE);
        names.addAll(ports.keySet());
        probed = Collections.unmodifiableSet(names);
    }

    /**
     * Runs changes of one port one after the other, each once the previous one completed (however
     * it completed), so that a leave of the group can never overtake a later join. On the event loop.
     */
    private Future<Void> serially(String netdev, Supplier<Future<Void>> change) {
        Future<Void> previous = changes.getOrDefault(netdev, Future.succeededFuture());
        Future<Void> next = previous.transform(ignored -> change.get());
        changes.put(netdev, next);
        next.onComplete(ignored -> changes.remove(netdev, next));
        return next;
    }

    private Future<Void> onContext(Supplier<Future<Void>> action) {
        if (context == null) {
            return Future.failedFuture(new IllegalStateException("the probe is not deployed"));
        }
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            try {
                action.get().onComplete(done);
            } catch (RuntimeException e) {
                done.fail(e);
            }
        });
        return done.future();
    }

    private static long nowMs() {
        return System.nanoTime() / 1_000_000;
    }
}
