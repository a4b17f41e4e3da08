package io.railmap.matrix.check;

import io.railmap.matrix.jaccl.MlxVersion;
import java.util.List;
import java.util.Optional;

/**
 * What a check of a file is asked with besides the file, and what those options are called where
 * they came from ({@code --hosts} and {@code --mode} on the command line, {@code hosts=} and
 * {@code mode=} in the API), for messages.
 *
 * @param hosts       the node of each rank, in rank order, when given: required for a devices
 *                    file, optional for a hostfile (which gives the order)
 * @param mode        the mode to check in, when given; it wins over a hostfile's backend
 * @param hostsOption the name of the hosts option
 * @param modeOption  the name of the mode option
 * @param mlxVersion  the MLX release whose jaccl reads the file
 */
public record CheckOptions(Optional<List<String>> hosts, Optional<Mode> mode, String hostsOption, String modeOption,
                           MlxVersion mlxVersion) {
    /** Copies the hosts. */
    public CheckOptions {
        hosts = hosts.map(List::copyOf);
    }
}
