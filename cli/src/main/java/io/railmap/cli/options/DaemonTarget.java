package io.railmap.cli.options;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Which daemon a command asks: {@code --daemon URL} or {@code --lab NODE}, else the local one. */
public final class DaemonTarget {
    @ArgGroup(exclusive = true)
    Choice choice;

    static final class Choice {
        @Option(names = "--daemon", paramLabel = "URL", description = "Ask this railmapd: http://HOST:PORT or unix:/PATH. Default: "
                + DaemonAddress.DEFAULT_DAEMON + ".")
        String daemon;

        @Option(names = "--lab", paramLabel = "NODE", description = "Ask the daemon of lab node NODE (see railmap lab).")
        String lab;
    }

    /**
     * @return the daemon's URL
     * @throws IllegalArgumentException when the URL or lab node is malformed
     */
    public String url() {
        return choice == null ? DaemonAddress.DEFAULT_DAEMON : DaemonAddress.url(choice.daemon, choice.lab);
    }
}
