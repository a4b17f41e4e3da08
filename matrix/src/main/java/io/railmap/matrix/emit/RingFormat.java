package io.railmap.matrix.emit;

import io.railmap.matrix.plan.MlxRing;

/**
 * A format for MLX's TCP ring backend: the ring of cables through the hosts ({@link MlxRing}),
 * written one way or another; jaccl's rules and {@code --order} do not apply, and the findings are
 * the ring's.
 */
abstract class RingFormat implements Format {
    private final About about;

    RingFormat(About about) {
        this.about = about;
    }

    @Override
    public final About about() {
        return about;
    }

    /** @throws io.railmap.matrix.plan.NoRingException when no ring of cables with IPv4 ends passes through the hosts */
    @Override
    public final Output write(Request request) {
        MlxRing ring = MlxRing.of(request.topology(), request.nodes());
        return new Output(text(ring.requireRing()), ring.findings());
    }

    /**
     * @param ring a ring ({@link MlxRing#requireRing()})
     * @return the text, ending with a newline
     */
    abstract String text(MlxRing ring);
}
