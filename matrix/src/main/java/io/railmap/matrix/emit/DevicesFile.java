package io.railmap.matrix.emit;

import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.plan.Plan;

/**
 * {@code jaccl}: the devices file jaccl reads from {@code MLX_IBV_DEVICES}, the plan's matrix
 * {@code devices[i][j][k]} (ranks × ranks × rails) as {@link DevicesCodec#write} writes it.
 */
final class DevicesFile implements Format {
    private static final About ABOUT = new About("jaccl", "application/json",
            "the devices file jaccl reads (MLX_IBV_DEVICES); a one-wire cell is a plain string, several wires an array",
            FormatOption.JACCL, false);

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        return new Output(DevicesCodec.write(plan.matrix().devices()), plan.findings());
    }
}
