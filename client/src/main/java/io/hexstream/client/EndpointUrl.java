package io.hexstream.client;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where the calls go: an {@code http} URL's host, port (80 if none) and request target (its path and query as written,
 * {@code /} if empty), and the {@code Host} header it makes (RFC 9110, section 7.2).
 *
 * @param host the host name or address
 * @param port the TCP port
 * @param target the request target, {@code /} or the URL's path and query
 * @param hostHeader the URL's authority, {@code host:port} as written
 */
public record EndpointUrl(String host, int port, String target, String hostHeader) {

    /**
     * The endpoint of {@code url}, e.g. {@code http://127.0.0.1:8551} or {@code http://node:8551/engine}.
     *
     * @throws IllegalArgumentException in one line, if it is not an {@code http} URL with a host
     */
    public static EndpointUrl parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getReason());
        }
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("'" + url + "' is not an http:// URL");
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("'" + url + "' has no host, or has user information");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        String host = uri.getHost().startsWith("[")
                ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        return new EndpointUrl(host, uri.getPort() < 0 ? 80 : uri.getPort(), target, uri.getRawAuthority());
    }

    @Override
    public String toString() {
        return "http://" + hostHeader + target;
    }
}
