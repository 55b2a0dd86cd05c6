package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpMethod;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A port's routes: (HTTP method, path) → {@link Route}, looked up once per request, on its head. A path is matched
 * exactly, up to a {@code ?} (the query is ignored); a path not in the table is {@code 404}, a path in it with another
 * method {@code 405} with {@code Allow} naming the methods it has. Immutable once built; adding a route is one
 * {@link Builder#add} call.
 */
public final class RouteTable {
    /** The routes of one path, by method, and its {@code Allow} value. */
    static final class Path {
        private final Map<HttpMethod, Route> routes;
        private final String allow;

        Path(Map<HttpMethod, Route> routes) {
            this.routes = Map.copyOf(routes);
            this.allow = routes.keySet().stream().map(HttpMethod::name).collect(Collectors.joining(", "));
        }

        /** The route of {@code method} on this path, or {@code null} ({@code 405}). */
        Route route(HttpMethod method) {
            return routes.get(method);
        }

        /** The methods this path has, as the {@code Allow} header lists them, e.g. {@code POST}. */
        String allow() {
            return allow;
        }
    }

    private final Map<String, Path> paths;

    private RouteTable(Map<String, Path> paths) {
        this.paths = Map.copyOf(paths);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The routes of the path of request target {@code uri}, or {@code null} if it is none ({@code 404}). */
    Path path(String uri) {
        int query = uri.indexOf('?');
        return paths.get(query < 0 ? uri : uri.substring(0, query));
    }

    public static final class Builder {
        private final Map<String, Map<HttpMethod, Route>> routes = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Serves {@code method} on {@code path} with {@code route}.
         *
         * @param path an absolute path, e.g. {@code /engine/v1/blobs/v2}, without query
         * @throws IllegalArgumentException if the path is not absolute or has a query, or if it already has a route for
         *     {@code method}
         */
        public Builder add(HttpMethod method, String path, Route route) {
            if (!path.startsWith("/") || path.indexOf('?') >= 0) {
                throw new IllegalArgumentException("not an absolute path without query: " + path);
            }
            if (routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).putIfAbsent(method, route) != null) {
                throw new IllegalArgumentException(method + " " + path + " has a route already");
            }
            return this;
        }

        public RouteTable build() {
            Map<String, Path> paths = new HashMap<>();
            routes.forEach((path, byMethod) -> paths.put(path, new Path(byMethod)));
            return new RouteTable(paths);
        }
    }
}
