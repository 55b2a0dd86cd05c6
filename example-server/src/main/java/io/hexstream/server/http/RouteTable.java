package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A port's routes: (HTTP method, path) → {@link Route}, looked up once per request, on its head. A path is matched
 * exactly, up to a {@code ?} (the query is ignored), in a target of origin or absolute form; a path not in the table is
 * {@code 404}, a path in it with another method {@code 405} with {@code Allow} naming the methods it has. A {@code GET}
 * asking to switch protocols ({@code Upgrade}, RFC 9110 7.8) goes to the path's route for that protocol if it has one
 * ({@link Builder#upgrade}), and is otherwise looked up as any other request. A path not in the table that starts with
 * a prefix given a fallback ({@link Builder#fallback}, e.g. {@code /engine/}) goes to that route whatever its method
 * (the longest such prefix wins), so the route, not {@code http}, answers it in its encoding. Immutable once built;
 * adding a route is one {@link Builder#add} call.
 */
public final class RouteTable {
    /** The routes of one path, by method, its upgrade routes by protocol (lower case), and its {@code Allow} value. */
    static final class Path {
        private final Map<HttpMethod, Route> routes;
        private final Map<String, Route> upgrades;
        private final String allow;
        /** A fallback's route, taken for every method; {@code null} on a path of the table. */
        private final Route any;

        Path(Map<HttpMethod, Route> routes, Map<String, Route> upgrades) {
            this.routes = Map.copyOf(routes);
            this.upgrades = Map.copyOf(upgrades);
            this.allow = routes.keySet().stream().map(HttpMethod::name).collect(Collectors.joining(", "));
            this.any = null;
        }

        /** The path of a fallback: {@code any} for every method. */
        Path(Route any) {
            this.routes = Map.of();
            this.upgrades = Map.of();
            this.allow = "";
            this.any = any;
        }

        /** The route of {@code method} on this path, or {@code null} ({@code 405}). */
        Route route(HttpMethod method) {
            return any != null ? any : routes.get(method);
        }

        /**
         * The route of a request with {@code method} and {@code headers} on this path: the upgrade route of the
         * protocol its {@code Upgrade} header names, for a {@code GET}, else {@link #route(HttpMethod)}.
         */
        Route route(HttpMethod method, HttpHeaders headers) {
            if (!upgrades.isEmpty() && HttpMethod.GET.equals(method)) {
                String protocol = headers.get(HttpHeaderNames.UPGRADE);
                Route upgrade =
                        protocol == null ? null : upgrades.get(protocol.trim().toLowerCase(Locale.ROOT));
                if (upgrade != null) {
                    return upgrade;
                }
            }
            return route(method);
        }

        /** The methods this path has, as the {@code Allow} header lists them, e.g. {@code POST}. */
        String allow() {
            return allow;
        }
    }

    private final Map<String, Path> paths;
    /** The fallbacks by prefix, the longest first. */
    private final List<Map.Entry<String, Path>> fallbacks;

    private RouteTable(Map<String, Path> paths, List<Map.Entry<String, Path>> fallbacks) {
        this.paths = Map.copyOf(paths);
        this.fallbacks = List.copyOf(fallbacks);
    }

    /** A new, empty table's builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The routes of the path of request target {@code uri}, or {@code null} if it is none ({@code 404}): its origin
     * form ({@code /engine/v1/blobs/v2?x}) or absolute form ({@code http://127.0.0.1:8551/}, whose path is taken,
     * {@code /} if it has none; RFC 9112 3.2.2), without its query; for a path not in the table, the fallback of the
     * longest prefix it starts with, if any.
     */
    Path path(String uri) {
        int start = 0;
        if (!uri.startsWith("/")) {
            int scheme = uri.regionMatches(true, 0, "http://", 0, 7)
                    ? 7
                    : uri.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
            if (scheme < 0) {
                return null; // asterisk or authority form: no route has one
            }
            start = scheme;
            while (start < uri.length() && uri.charAt(start) != '/' && uri.charAt(start) != '?') {
                start++;
            }
        }
        int query = uri.indexOf('?', start);
        int end = query < 0 ? uri.length() : query;
        String path = start == end ? "/" : uri.substring(start, end);
        Path found = paths.get(path);
        if (found == null) {
            for (Map.Entry<String, Path> fallback : fallbacks) {
                if (path.startsWith(fallback.getKey())) {
                    return fallback.getValue();
                }
            }
        }
        return found;
    }

    /** Builds a {@link RouteTable}: its routes, upgrades and fallbacks, each path and prefix once. */
    public static final class Builder {
        private final Map<String, Map<HttpMethod, Route>> routes = new LinkedHashMap<>();
        private final Map<String, Map<String, Route>> upgrades = new LinkedHashMap<>();
        private final Map<String, Route> fallbacks = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Serves {@code method} on {@code path} with {@code route}.
         *
         * @param path an absolute path, e.g. {@code /engine/v1/blobs/v2}, without query
         * @throws IllegalArgumentException if the path is not absolute or has a query, or if it already has a route for
         *     {@code method}
         */
        public Builder add(HttpMethod method, String path, Route route) {
            checkPath(path);
            if (routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).putIfAbsent(method, route) != null) {
                throw new IllegalArgumentException(method + " " + path + " has a route already");
            }
            return this;
        }

        /**
         * Serves a {@code GET} on {@code path} asking to switch to {@code protocol} ({@code Upgrade: websocket}) with
         * {@code route}, which answers with {@link SwitchingProtocols}. A {@code GET} without that {@code Upgrade} is
         * looked up as before (a {@code 405} if the path has no {@code GET} route).
         *
         * @param protocol the {@code Upgrade} token, matched without regard to case
         * @throws IllegalArgumentException as {@link #add}, or if the path already has a route for {@code protocol}
         */
        public Builder upgrade(String protocol, String path, Route route) {
            checkPath(path);
            routes.computeIfAbsent(path, p -> new LinkedHashMap<>());
            String token = protocol.toLowerCase(Locale.ROOT);
            if (upgrades.computeIfAbsent(path, p -> new LinkedHashMap<>()).putIfAbsent(token, route) != null) {
                throw new IllegalArgumentException("GET " + path + " has an upgrade to " + protocol + " already");
            }
            return this;
        }

        /**
         * Serves every request whose path is not in the table but starts with {@code prefix} with {@code route},
         * whatever its method: the route's {@link Route#needsJwt()}, limits and head checks apply as to any other, and
         * its answer is its own (e.g. {@code 404} in the route's encoding). A path of the table keeps its {@code 405}
         * for a method it has not.
         *
         * @param prefix an absolute path prefix without query, e.g. {@code /engine/}
         * @throws IllegalArgumentException if the prefix is not absolute or has a query, or if it has a fallback
         *     already
         */
        public Builder fallback(String prefix, Route route) {
            checkPath(prefix);
            if (fallbacks.putIfAbsent(prefix, route) != null) {
                throw new IllegalArgumentException(prefix + " has a fallback already");
            }
            return this;
        }

        private static void checkPath(String path) {
            if (!path.startsWith("/") || path.indexOf('?') >= 0) {
                throw new IllegalArgumentException("not an absolute path without query: " + path);
            }
        }

        /** The table, immutable. */
        public RouteTable build() {
            Map<String, Path> paths = new HashMap<>();
            routes.forEach((path, byMethod) ->
                    paths.put(path, new Path(byMethod, upgrades.getOrDefault(path, Map.of()))));
            List<Map.Entry<String, Path>> byPrefix = new ArrayList<>();
            fallbacks.forEach((prefix, route) -> byPrefix.add(Map.entry(prefix, new Path(route))));
            byPrefix.sort(Comparator.comparingInt(
                            (Map.Entry<String, Path> e) -> e.getKey().length())
                    .reversed());
            return new RouteTable(paths, byPrefix);
        }
    }
}
