package io.railmap.cli.client;

import io.railmap.matrix.model.Names;
import io.vertx.core.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where a railmapd's API is: {@code http://HOST:PORT[/base]} or a Unix socket {@code unix:/PATH}.
 *
 * @param url      the URL as given
 * @param address  the socket to connect to
 * @param basePath a path prefix, empty or starting with {@code /}, without a trailing {@code /}
 */
record DaemonEndpoint(String url, SocketAddress address, String basePath) {
    /**
     * @param url {@code http://host:port[/base]} or {@code unix:/path/to.sock}
     * @return the endpoint
     * @throws IllegalArgumentException when the URL is neither
     */
    static DaemonEndpoint parse(String url) {
        if (url.startsWith("unix:")) {
            String path = url.substring("unix:".length());
            if (path.isEmpty()) {
                throw new IllegalArgumentException("--daemon \"" + Names.escape(url, 256) + "\" names no socket: write unix:/path/to/railmapd.sock");
            }
            return new DaemonEndpoint(url, SocketAddress.domainSocketAddress(path), "");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--daemon \"" + Names.escape(url, 256) + "\" is not a URL: " + e.getReason());
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1) {
            throw new IllegalArgumentException("--daemon \"" + Names.escape(url, 256) + "\" is not http://HOST:PORT or unix:/PATH");
        }
        return new DaemonEndpoint(url, SocketAddress.inetSocketAddress(uri.getPort(), uri.getHost()),
                uri.getPath() == null ? "" : uri.getPath().replaceAll("/+$", ""));
    }
}
