package io.railmap.matrix.model;

import java.util.Optional;

/**
 * What an RDMA device says it can hold, as {@code ibv_query_device} reports it ({@code struct
 * ibv_device_attr} of rdma-core's {@code libibverbs/verbs.h}; {@code ibv_devinfo -v} prints the same
 * fields as {@code max_qp:}, {@code max_pd:}, {@code max_mr:}, {@code max_cqe:}). Each value is a
 * count per device, shared by every context a process opens on it: a Thunderbolt device fails the
 * eleventh {@code ibv_create_qp} with EBUSY whether the queue pairs sit on one context or on ten
 * (mlx issue 3162, pull request 4209), and reports {@code max_qp} 11 on most Macs and 3 on an
 * M3 Ultra acting as a mesh hub (mlx issue 3205).
 *
 * @param maxQp  the queue pairs the device holds ({@code max_qp}); empty when not known
 * @param maxPd  the protection domains ({@code max_pd}); empty when not known
 * @param maxMr  the memory regions ({@code max_mr}); empty when not known
 * @param maxCqe the entries of one completion queue ({@code max_cqe}), where the device says; empty
 *               when not known
 */
public record RdmaLimits(Optional<Integer> maxQp, Optional<Integer> maxPd, Optional<Integer> maxMr, Optional<Integer> maxCqe) {
    /**
     * @throws IllegalArgumentException when a value is negative (each is a C {@code int} count, 0 to
     *                                  2^31-1), or none is known (a port with no known limit has no
     *                                  {@code RdmaLimits})
     * @throws NullPointerException     when a component is null
     */
    public RdmaLimits {
        check("max_qp", maxQp);
        check("max_pd", maxPd);
        check("max_mr", maxMr);
        check("max_cqe", maxCqe);
        if (maxQp.isEmpty() && maxPd.isEmpty() && maxMr.isEmpty() && maxCqe.isEmpty()) {
            throw new IllegalArgumentException("RDMA device limits with no value known");
        }
    }

    private static void check(String what, Optional<Integer> value) {
        value.ifPresent(v -> {
            if (v < 0) {
                throw new IllegalArgumentException(what + " " + v + " is negative (a count from 0 to " + Integer.MAX_VALUE + ")");
            }
        });
    }

    /**
     * @param maxQp  as the canonical constructor, or null when not known
     * @param maxPd  as the canonical constructor, or null when not known
     * @param maxMr  as the canonical constructor, or null when not known
     * @param maxCqe as the canonical constructor, or null when not known
     * @return the limits, or empty when none is known
     * @throws IllegalArgumentException when a value is negative
     */
    public static Optional<RdmaLimits> of(Integer maxQp, Integer maxPd, Integer maxMr, Integer maxCqe) {
        if (maxQp == null && maxPd == null && maxMr == null && maxCqe == null) {
            return Optional.empty();
        }
        return Optional.of(new RdmaLimits(Optional.ofNullable(maxQp), Optional.ofNullable(maxPd), Optional.ofNullable(maxMr),
                Optional.ofNullable(maxCqe)));
    }
}
