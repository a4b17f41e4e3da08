package io.railmap.daemon;

import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.time.Instant;

/**
 * The daemon's log format: one line per event, {@code 2026-11-22T15:09:10.123Z INFO probe: message},
 * with no stack trace unless {@code RAILMAP_DEBUG} is set. The JDK's {@code LogManager} closes its
 * handlers in a shutdown hook of its own; {@link Manager} postpones that until the daemon's shutdown
 * has logged its last line.
 */
public final class Logs {
    private Logs() {
    }

    /** A log manager whose reset waits for {@link #finish()}, so shutdown messages are not lost. */
    public static final class Manager extends LogManager {
        private static volatile Manager instance;

        /** Made by the JDK when {@code java.util.logging.manager} names this class. */
        public Manager() {
            instance = this;
        }

        @Override
        public void reset() {
            // ignored: the daemon calls finish() at the end of its own shutdown
        }

        void finish() {
            super.reset();
        }
    }

    /** Installs the one-line format on the root logger; call first thing in main. */
    public static void install() {
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            h.setFormatter(new OneLine());
            h.setLevel(Level.INFO);
        }
        root.setLevel(Level.INFO);
        // Libraries' routine chatter stays out of the one-line-per-event log.
        Logger.getLogger("io.netty").setLevel(Level.WARNING);
        Logger.getLogger("io.vertx").setLevel(Level.WARNING);
        Logger.getLogger("org.jgroups").setLevel(Level.WARNING);
        // The API's TCP and Unix-socket listeners share Vert.x's server gauges; Micrometer warns once
        // that the second registration is ignored, which is harmless.
        Logger.getLogger("io.micrometer.core.instrument.MeterRegistry").setLevel(Level.SEVERE);
    }

    /** Flushes and closes the handlers; call last in the shutdown hook. */
    public static void finish() {
        Manager m = Manager.instance;
        if (m != null) {
            m.finish();
        }
    }

    private static final class OneLine extends Formatter {
        private final boolean debug = System.getenv("RAILMAP_DEBUG") != null;

        @Override
        public String format(LogRecord r) {
            String logger = r.getLoggerName() == null ? "" : r.getLoggerName();
            String shortName = logger.substring(logger.lastIndexOf('.') + 1);
            StringBuilder line = new StringBuilder()
                    .append(Instant.ofEpochMilli(r.getMillis())).append(' ')
                    .append(r.getLevel() == Level.SEVERE ? "ERROR" : r.getLevel().getName()).append(' ')
                    .append(shortName).append(": ").append(formatMessage(r));
            if (r.getThrown() != null) {
                line.append(" (").append(r.getThrown()).append(')');
                if (debug) {
                    java.io.StringWriter trace = new java.io.StringWriter();
                    r.getThrown().printStackTrace(new java.io.PrintWriter(trace));
                    line.append('\n').append(trace);
                }
            }
            return line.append('\n').toString();
        }
    }
}
