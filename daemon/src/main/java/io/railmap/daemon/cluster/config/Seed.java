package io.railmap.daemon.cluster.config;

import io.railmap.matrix.model.Names;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code --seeds}: a daemon to ask for the cluster when starting.
 *
 * @param host a host name (letters, digits, '-', '_' and '.', at most 253 characters) or an IP
 *             literal (IPv6 without brackets)
 * @param port its cluster port, 1–65535
 */
public record Seed(String host, int port) {
    /** The most seeds {@code --seeds} may list. */
    public static final int MAX_SEEDS = 256;

    /**
     * @throws IllegalArgumentException when the host is neither a host name nor an IP literal, or the
     *                                  port is out of range
     */
    public Seed {
        if (host == null || host.length() > 253 || !host.matches("[A-Za-z0-9_.-]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%[A-Za-z0-9_.-]+)?")) {
            throw new IllegalArgumentException("seed host \"" + Names.escape(host) + "\" is neither a host name nor an IP address");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("seed port " + port + " is outside 1-65535");
        }
    }

    /**
     * Parses {@code host[:port],...}; IPv6 literals go in brackets when a port follows
     * ({@code [fd00::2]:7800}).
     *
     * @param value       the flag's value
     * @param defaultPort the port of entries that name none (the cluster port)
     * @return the seeds in order
     * @throws IllegalArgumentException naming {@code --seeds} and the entry when one is empty or
     *                                  malformed, or there are more than {@value #MAX_SEEDS}
     */
    public static List<Seed> parseList(String value, int defaultPort) {
        List<Seed> seeds = new ArrayList<>();
        String[] entries = value.split(",", -1);
        if (entries.length > MAX_SEEDS) {
            throw new IllegalArgumentException("--seeds lists " + entries.length + " entries; at most " + MAX_SEEDS
                    + " are taken (a few per cluster are enough: any member answers)");
        }
        for (String raw : entries) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("--seeds \"" + Names.escape(value) + "\" has an empty entry: write host:port,host:port");
            }
            try {
                seeds.add(parse(entry, defaultPort));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--seeds entry \"" + Names.escape(entry) + "\" is not host[:port]: " + e.getMessage());
            }
        }
        return List.copyOf(seeds);
    }

    private static Seed parse(String entry, int defaultPort) {
        String host;
        String port = null;
        if (entry.startsWith("[")) {
            int close = entry.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("no closing ]");
            }
            host = entry.substring(1, close);
            String rest = entry.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("expected :port after ]");
                }
                port = rest.substring(1);
            }
        } else if (entry.indexOf(':') != entry.lastIndexOf(':')) {
            host = entry; // a bare IPv6 literal, no port
        } else {
            int colon = entry.indexOf(':');
            host = colon < 0 ? entry : entry.substring(0, colon);
            port = colon < 0 ? null : entry.substring(colon + 1);
        }
        if (port == null) {
            return new Seed(host, defaultPort);
        }
        if (!port.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("port \"" + Names.escape(port) + "\" is not a number");
        }
        return new Seed(host, Integer.parseInt(port));
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
