package io.railmap.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Entry point of {@code bin/railmap}. */
public final class Main {
    private Main() {
    }

    /** @param args the command line */
    public static void main(String[] args) {
        quietLogs();
        System.exit(Railmap.run(args));
    }

    /**
     * Commands print what a person needs themselves; libraries may add one-line warnings, nothing
     * more. (Discovery's per-port log lines are what {@code discover} already prints.)
     */
    static void quietLogs() {
        System.setProperty("java.util.logging.SimpleFormatter.format", "railmap: %4$s: %5$s%6$s%n");
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        for (var handler : root.getHandlers()) {
            handler.setLevel(Level.WARNING);
            handler.setFormatter(new java.util.logging.SimpleFormatter());
        }
        Logger.getLogger("io.railmap.daemon.discovery").setLevel(Level.OFF);
    }
}
