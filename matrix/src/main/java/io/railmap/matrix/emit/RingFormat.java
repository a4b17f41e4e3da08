package io.railmap.matrix.emit;

import io.railmap.matrix.finding.Finding;
import io.railmap.matrix.jaccl.MlxVersion;
import io.railmap.matrix.plan.MlxRing;
import java.util.List;

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
        MlxRing ring = MlxRing.of(request.topology(), request.nodes()).requireRing();
        return new Output(text(ring, request.mlxVersion()), findings(ring, request.mlxVersion()));
    }

    /**
     * @param ring    a ring ({@link MlxRing#requireRing()})
     * @param version the MLX release asked for (a format that does not read {@code --mlx-version} gets the default)
     * @return the text, ending with a newline
     */
    abstract String text(MlxRing ring, MlxVersion version);

    /**
     * @param ring    a ring ({@link MlxRing#requireRing()})
     * @param version the MLX release asked for
     * @return the ring's findings, and any the format adds about how that release reads the text
     */
    List<Finding> findings(MlxRing ring, MlxVersion version) {
        return ring.findings();
    }
}
