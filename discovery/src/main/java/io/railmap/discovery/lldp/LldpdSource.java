package io.railmap.discovery.lldp;

import io.railmap.discovery.model.LocalPort;
import io.railmap.discovery.model.SourceUnavailableException;
import io.railmap.discovery.model.SwitchPortSource;
import io.railmap.discovery.model.SwitchPorts;
import io.railmap.matrix.model.Names;
import io.railmap.process.BoundedCommand;
import io.railmap.process.CommandFailedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The switch port at the far end of each netdev, from lldpd's neighbour table, read with
 * {@code lldpcli -u SOCKET -f json0 show neighbors details} and parsed by {@link LldpNeighbours}.
 * lldpcli's output is bounded to {@value #MAX_OUTPUT_BYTES} bytes and its run to
 * {@link #TIMEOUT}; it is found in {@code PATH} or sbin ({@link BoundedCommand#locate}).
 */
public final class LldpdSource implements SwitchPortSource {
    /** lldpd's own default control socket ({@code --with-lldpd-ctl-socket}, Debian and Red Hat: {@code ${runstatedir}/lldpd.socket}). */
    public static final Path DEFAULT_SOCKET = Path.of("/run/lldpd.socket");
    /** The longest output read: about 2 KB of json0 per neighbour, for {@value LldpNeighbours#MAX_NEIGHBOURS} of them. */
    public static final int MAX_OUTPUT_BYTES = 8 << 20;
    /** How long lldpcli may take: it asks lldpd over a local socket, normally within milliseconds. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final Path socket;

    /** @param socket lldpd's control socket ({@code lldpd -u}, lldpcli {@code -u}) */
    public LldpdSource(Path socket) {
        this.socket = Objects.requireNonNull(socket, "socket");
    }

    @Override
    public String name() {
        return "lldpd";
    }

    /**
     * @throws SourceUnavailableException when lldpcli is not installed, cannot reach lldpd through
     *                                    the socket (not running, refused, no permission), answers
     *                                    too slowly or too much, or prints something that is no
     *                                    json0 neighbour table
     */
    @Override
    public SwitchPorts read(List<LocalPort> ports) throws SourceUnavailableException {
        Path lldpcli = BoundedCommand.locate("lldpcli").orElseThrow(() -> new SourceUnavailableException(
                "lldpcli is not installed (no lldpcli in PATH or sbin): install lldpd (Debian: apt-get install lldpd) to learn the switch"
                        + " port at the far end of each port by LLDP"));
        List<String> argv = List.of(lldpcli.toString(), "-u", socket.toString(), "-f", "json0", "show", "neighbors", "details");
        String out;
        try {
            out = BoundedCommand.run(argv, TIMEOUT, MAX_OUTPUT_BYTES);
        } catch (CommandFailedException e) {
            throw new SourceUnavailableException(e.getMessage() + " (is lldpd running with control socket "
                    + Names.escape(socket.toString(), 120) + "? see --lldpd-socket; railmapd's user needs to be in lldpd's group, _lldpd on Debian)");
        }
        try {
            return LldpNeighbours.parse("lldpcli " + Names.escape(socket.toString(), 120), out);
        } catch (IllegalArgumentException e) {
            throw new SourceUnavailableException(e.getMessage());
        }
    }
}
