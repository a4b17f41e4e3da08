package io.railmap.matrix.emit;

import io.railmap.matrix.codec.DevicesCodec;
import io.railmap.matrix.plan.Plan;
import java.util.EnumSet;
import java.util.Set;

/**
 * {@code jaccl}: the devices file jaccl reads from {@code MLX_IBV_DEVICES}, the plan's matrix
 * {@code devices[i][j][k]} (ranks × ranks × rails) as {@link DevicesCodec#write} writes it.
 */
final class DevicesFile implements Format {
    @Override
    public String name() {
        return "jaccl";
    }

    @Override
    public String mediaType() {
        return "application/json";
    }

    @Override
    public String summary() {
        return "the devices file jaccl reads (MLX_IBV_DEVICES); a one-wire cell is a plain string, several wires an array";
    }

    @Override
    public Set<FormatOption> reads() {
        return EnumSet.of(FormatOption.ORDER, FormatOption.RAILS, FormatOption.MLX_VERSION);
    }

    @Override
    public Output write(Request request) {
        Plan plan = request.plan();
        return new Output(DevicesCodec.write(plan.matrix().devices()), plan.findings());
    }
}
