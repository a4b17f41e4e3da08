package io.railmap.cli.options;

import io.railmap.cli.lab.LabSetup;
import io.railmap.lab.LabNames;

/** The one rule for which daemon a command talks to: {@code --lab NODE}, else {@code --daemon URL}, else the local one. */
public final class DaemonAddress {
    /** The local daemon's API, as railmapd binds it by default. */
    public static final String DEFAULT_DAEMON = "http://127.0.0.1:7246";

    private DaemonAddress() {
    }

    /**
     * @param daemon the {@code --daemon} value, or null
     * @param lab    the {@code --lab} value, or null
     * @return the daemon URL
     * @throws IllegalArgumentException when the lab node name is malformed
     */
    public static String url(String daemon, String lab) {
        if (lab != null) {
            return LabSetup.daemonUrl(LabNames.node("--lab", lab));
        }
        return daemon != null ? daemon : DEFAULT_DAEMON;
    }
}
