package io.railmap.daemon.probe;

import io.railmap.matrix.model.PortRef;
import java.util.Objects;
import java.util.Optional;

/**
 * A far end one port hears: the port at the other end of its cable (or one of several, on a
 * shared segment), as its last hello described it.
 *
 * @param farEnd      the far port, {@code node:netdev}
 * @param rdma        the far port's RDMA device, if it has one
 * @param mac         the far port's link-layer address
 * @param incarnation the run of the far daemon that sent the hello
 * @param seq         the sequence number of the last hello taken from it (0 for version 1)
 * @param management  the far daemon's HTTP API, {@code host:port}
 * @param heardAtMs   when the last hello arrived, in ms on the table's monotonic clock
 * @param expiresAtMs when this far end is forgotten unless heard again, same clock
 */
public record Neighbour(
        PortRef farEnd,
        Optional<String> rdma,
        String mac,
        long incarnation,
        long seq,
        String management,
        long heardAtMs,
        long expiresAtMs) {

    /** @throws NullPointerException when a field is null */
    public Neighbour {
        Objects.requireNonNull(farEnd, "farEnd");
        Objects.requireNonNull(rdma, "rdma");
        Objects.requireNonNull(mac, "mac");
        Objects.requireNonNull(management, "management");
    }

    /**
     * @param hello     a hello (not a goodbye), its TTL already capped by the receiver
     * @param heardAtMs when it arrived, monotonic ms
     * @return the far end it describes, expiring after the hello's TTL
     */
    static Neighbour from(ProbeDatagram hello, long heardAtMs) {
        return new Neighbour(hello.farEnd(), hello.rdma(), hello.mac(), hello.incarnation(), hello.seq(), hello.management(),
                heardAtMs, ProbeTiming.expiresAtMs(heardAtMs, hello.ttlMs()));
    }
}
