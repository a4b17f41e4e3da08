package io.railmap.discovery.linux;

import io.railmap.discovery.model.DiscoveryException;
import io.railmap.discovery.model.IbvDevinfo;
import io.railmap.process.BoundedCommand;
import io.railmap.process.CommandFailedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a Linux node's RDMA devices' limits come from: {@code ibv_devinfo -v} (rdma-core), which asks
 * each verbs device ({@code ibv_query_device}) and prints {@code max_qp}, {@code max_pd}, {@code max_mr}
 * and {@code max_cqe}; sysfs does not hold them. Errors: none thrown; a missing program, a failure or
 * output with no device costs every limit, with a note naming the command and why.
 */
@FunctionalInterface
interface VerbsLimits {
    /** Time {@code ibv_devinfo -v} may take: it opens every device once. */
    Duration TIMEOUT = Duration.ofSeconds(5);
    /** Output taken: about 3 KiB a device port in {@code -v}, so room for over a hundred. */
    int MAX_OUTPUT_BYTES = 512 * 1024;

    /** Runs the {@code ibv_devinfo} found in {@code PATH} or sbin ({@link BoundedCommand#locate}). */
    VerbsLimits LIVE = note -> {
        Optional<Path> program = BoundedCommand.locate("ibv_devinfo");
        if (program.isEmpty()) {
            note.accept("RDMA device limits unknown: no ibv_devinfo in PATH or sbin (install rdma-core's ibverbs-utils)");
            return Optional.empty();
        }
        try {
            return parse("ibv_devinfo -v", BoundedCommand.run(List.of(program.get().toString(), "-v"), TIMEOUT, MAX_OUTPUT_BYTES), note);
        } catch (CommandFailedException e) {
            note.accept("RDMA device limits unknown: " + e.getMessage());
            return Optional.empty();
        }
    };

    /**
     * @param note where to tell why the limits are unknown
     * @return the devices {@code ibv_devinfo -v} lists, with their limits; empty when it gave none
     */
    Optional<IbvDevinfo> read(Consumer<String> note);

    /**
     * @param source what the text came from, for messages
     * @param text   {@code ibv_devinfo -v}'s output
     * @param note   where to tell why the text gives no devices
     * @return the devices, or empty when the text is no {@code ibv_devinfo} output
     */
    static Optional<IbvDevinfo> parse(String source, String text, Consumer<String> note) {
        try {
            return Optional.of(IbvDevinfo.parse(source, text));
        } catch (DiscoveryException e) {
            note.accept("RDMA device limits unknown: " + e.getMessage());
            return Optional.empty();
        }
    }
}
