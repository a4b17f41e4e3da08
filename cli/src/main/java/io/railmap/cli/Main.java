package io.railmap.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Entry point of {@code bin/railmap}. */
public final class Main {
    private Main() {
    }

    /**
     * Runs the command and exits with its code. Running out of heap (a snapshot near its 64 MiB cap
     * takes about 700 MB) is one line and exit {@link ExitCodes#INPUT}, not a stack trace.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        quietLogs();
        int code;
        try {
            code = Railmap.run(args);
        } catch (OutOfMemoryError e) {
            System.err.println("railmap: out of memory: the input needs more than this JVM's " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MB of heap; give it more with RAILMAP_JAVA_OPTS=-Xmx2g");
            code = ExitCodes.INPUT;
        }
        System.exit(code);
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
        Logger.getLogger("io.railmap.discovery").setLevel(Level.OFF);
    }
}
