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
    /**
     * Loggers whose level is set here. The JDK's log manager holds loggers weakly: without these
     * references a logger could be collected and its level forgotten, letting a library's INFO lines in.
     */
    private static final java.util.List<Logger> CONFIGURED = new java.util.ArrayList<>();

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
            // on the handler: a logger's own filter is not consulted for its children's records
            h.setFilter(new OncePer(REPEAT_WINDOW_MS, REPEATS_REMEMBERED, "org.jgroups."));
        }
        root.setLevel(Level.INFO);
        // Libraries' routine chatter stays out of the one-line-per-event log.
        level("io.netty", Level.WARNING);
        level("io.vertx", Level.WARNING);
        level("org.jgroups", Level.WARNING);
        // The API's TCP and Unix-socket listeners share Vert.x's server gauges; Micrometer warns once
        // that the second registration is ignored, which is harmless.
        level("io.micrometer.core.instrument.MeterRegistry", Level.SEVERE);
    }

    private static synchronized Logger level(String name, Level level) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(level);
        CONFIGURED.add(logger);
        return logger;
    }

    /** A JGroups line identical to one logged less than this long ago is dropped, in ms (10 minutes). */
    static final long REPEAT_WINDOW_MS = 10 * 60 * 1000;
    /** How many distinct JGroups lines {@link OncePer} remembers. */
    static final int REPEATS_REMEMBERED = 256;

    /**
     * Lets a message of one library through once per window: JGroups logs a message from every peer
     * it drops, each time (a daemon with the wrong cluster key knocks every second or two), and names
     * the peer in the text, so this leaves one line per peer and cause every ten minutes. Records of
     * other sources pass untouched. Thread-safe.
     */
    static final class OncePer implements java.util.logging.Filter {
        private final long windowMs;
        private final String prefix;
        private final java.util.Map<String, Long> lastLogged;

        /**
         * @param windowMs   how long an identical message is held back, in ms
         * @param remembered how many distinct messages are remembered (the least recent is forgotten)
         * @param prefix     the logger or source class prefix of the records filtered, e.g. {@code org.jgroups.}
         */
        OncePer(long windowMs, int remembered, String prefix) {
            this.windowMs = windowMs;
            this.prefix = prefix;
            this.lastLogged = new java.util.LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<String, Long> eldest) {
                    return size() > remembered;
                }
            };
        }

        @Override
        public synchronized boolean isLoggable(LogRecord r) {
            // JGroups' records name no logger, only their source class
            String source = r.getLoggerName() != null ? r.getLoggerName() : r.getSourceClassName();
            if (source == null || !source.startsWith(prefix)) {
                return true;
            }
            String key = r.getMessage();
            Long last = lastLogged.get(key);
            if (last != null && r.getMillis() - last < windowMs) {
                return false;
            }
            lastLogged.put(key, r.getMillis());
            return true;
        }
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
            // JGroups' records name no logger, only their source class
            String logger = r.getLoggerName() != null ? r.getLoggerName() : r.getSourceClassName() != null ? r.getSourceClassName() : "";
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
