package io.hexstream.server.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.Refusal;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The route table drives the head: 404 for a path not in it, 405 with {@code Allow} for a method the path has not, a
 * JWT only where the route asks for one, each route's own body limit; an accepted request reaches its route with its
 * whole body.
 */
class RouteTableTest {
    private static final Authenticator JWT = authorization ->
            "Bearer good".equals(authorization) ? null : new Refusal(Refusal.Reason.MISSING, "no good token");

    /** Answers {@code got N} with the body's length. */
    private record Echo(boolean needsJwt, int maxBodyBytes, String reason) implements Route {
        @Override
        public Rejection tooLarge(long contentLength) {
            return reason == null
                    ? null
                    : new Rejection(
                            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                            "text/plain; charset=utf-8",
                            reason + " " + contentLength + "\n");
        }

        /** A {@code Content-Type} other than {@code text/x-echo}, if any, is {@code 415}. */
        @Override
        public Rejection rejectHead(HttpVersion version, HttpHeaders headers) {
            String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
            return type == null || type.equals("text/x-echo")
                    ? null
                    : new Rejection(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "application/x-why", "{" + type + "}");
        }

        @Override
        public void handle(ByteBuf body, ReplySink sink) {
            sink.respond(
                    HttpResponseStatus.OK,
                    "text/plain; charset=utf-8",
                    Unpooled.copiedBuffer("got " + body.readableBytes() + "\n", StandardCharsets.UTF_8),
                    null);
        }
    }

    private static final RouteTable ROUTES = RouteTable.builder()
            .add(HttpMethod.POST, "/open", new Echo(false, 8, null))
            .add(HttpMethod.POST, "/guarded", new Echo(true, 1024, null))
            .add(HttpMethod.GET, "/guarded", new Echo(true, 0, null))
            .add(HttpMethod.POST, "/small", new Echo(false, 4, "at most 4 bytes, got"))
            .build();

    /** {@link #ROUTES}' paths and two fallbacks: {@code /engine/} answers {@code got N}, {@code /engine/x/} refuses. */
    private static final RouteTable FALLBACKS = RouteTable.builder()
            .add(HttpMethod.POST, "/engine/guarded", new Echo(true, 1024, null))
            .fallback("/engine/", new Echo(true, 16, null))
            .fallback("/engine/x/", new Echo(false, 0, "none here:"))
            .build();

    private static EmbeddedChannel channel() {
        return channel(ROUTES);
    }

    private static EmbeddedChannel channel(RouteTable routes) {
        return new EmbeddedChannel(new EngineApiInitializer(
                routes,
                JWT,
                new EngineApiInitializer.Limits(1 << 20, 16, Duration.ZERO, Duration.ZERO),
                Runnable::run,
                new RefusalLog(),
                ServerMetrics.NONE));
    }

    private static String post(String path, String authorization, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: t\r\n"
                + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "Content-Length: "
                + body.length() + "\r\n\r\n" + body;
    }

    /** Sends {@code requests} and returns every byte written back. */
    private static String exchange(EmbeddedChannel channel, String requests) {
        channel.writeInbound(Unpooled.copiedBuffer(requests, US_ASCII));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes).release();
            out.writeBytes(bytes);
        }
        return out.toString(US_ASCII);
    }

    private static String ok(String text) {
        return "HTTP/1.1 200 OK\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: " + (text.length() + 1)
                + "\r\n\r\n" + text + "\n";
    }

    @Test
    void unknownPathsAre404AndOtherMethods405WithAllowEachClosingItsConnection() {
        String[][] cases = {
            {post("/", null, "ab"), "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"},
            {post("/open/", null, "ab"), "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"},
            {
                "PUT /guarded HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc",
                "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\nallow: POST, GET\r\n\r\n"
            },
            {
                "GET /open?x=1 HTTP/1.1\r\nHost: t\r\n\r\n",
                "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\nallow: POST\r\n\r\n"
            },
        };
        for (String[] refused : cases) {
            EmbeddedChannel channel = channel();
            // what follows a refused request on its connection is not answered
            assertEquals(refused[1], exchange(channel, refused[0] + post("/open?query", null, "ab")), refused[0]);
            assertFalse(channel.isOpen(), () -> "a refusal closes its connection: " + refused[0]);
            assertFalse(channel.finishAndReleaseAll());
        }
        EmbeddedChannel query = channel();
        assertEquals(ok("got 2"), exchange(query, post("/open?query", null, "ab")));
        assertFalse(query.finishAndReleaseAll());
    }

    @Test
    void aJwtIsCheckedOnlyWhereTheRouteAsksForIt() {
        EmbeddedChannel open = channel();
        assertEquals(
                ok("got 3") + ok("got 4"),
                exchange(open, post("/open", null, "abc") + post("/guarded", "Bearer good", "abcd")));
        assertFalse(open.finishAndReleaseAll());

        EmbeddedChannel refused = channel();
        assertEquals(
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 14\r\n"
                        + "connection: close\r\n\r\nno good token\n",
                exchange(refused, post("/guarded", null, "abcd") + post("/open", null, "abc")));
        assertFalse(refused.isOpen(), "a 401 closes the connection; what followed is not answered");
        assertFalse(refused.finishAndReleaseAll());
    }

    @Test
    void eachRouteHasItsOwnBodyLimit() {
        EmbeddedChannel channel = channel();
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                exchange(channel, post("/open", null, "123456789") + post("/guarded", "Bearer good", "123456789")));
        assertFalse(channel.isOpen(), "a 413 closes the connection; what followed is not answered");
        assertFalse(channel.finishAndReleaseAll());

        EmbeddedChannel guarded = channel();
        assertEquals(ok("got 9"), exchange(guarded, post("/guarded", "Bearer good", "123456789")));
        assertFalse(guarded.finishAndReleaseAll());

        EmbeddedChannel small = channel();
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
                        + "content-length: 23\r\nconnection: close\r\n\r\nat most 4 bytes, got 5\n",
                exchange(small, post("/small", null, "12345")));
        assertFalse(small.isOpen(), "a 413 with a reason closes the connection");
        assertFalse(small.finishAndReleaseAll());
    }

    @Test
    void aRouteRejectsAHeadWithItsOwnBodyAndTheConnectionCloses() {
        EmbeddedChannel channel = channel();
        String typed = "POST /open HTTP/1.1\r\nHost: t\r\nContent-Type: text/x-echo\r\nContent-Length: 1\r\n\r\n1";
        String other = "POST /open HTTP/1.1\r\nHost: t\r\nContent-Type: text/html\r\nContent-Length: 1\r\n\r\n1";
        assertEquals(
                ok("got 1") + "HTTP/1.1 415 Unsupported Media Type\r\ncontent-type: application/x-why\r\n"
                        + "content-length: 11\r\nconnection: close\r\n\r\n{text/html}",
                exchange(channel, typed + other + typed));
        assertFalse(channel.isOpen(), "a rejected head closes the connection; what followed is not answered");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aPathUnderAFallbacksPrefixGoesToItWhateverItsMethodWithItsJwtAndLimits() {
        EmbeddedChannel channel = channel(FALLBACKS);
        String put = "PUT /engine/v9/x?q HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer good\r\nContent-Length: 1"
                + "\r\n\r\n1";
        assertEquals(
                ok("got 2") + ok("got 1") + ok("got 3"),
                exchange(
                        channel,
                        post("/engine/v9/x", "Bearer good", "ab")
                                + put
                                + post("http://t/engine/guarded", "Bearer good", "abc")));
        assertFalse(channel.finishAndReleaseAll());

        EmbeddedChannel unauthenticated = channel(FALLBACKS);
        assertEquals(
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 14\r\n"
                        + "connection: close\r\n\r\nno good token\n",
                exchange(unauthenticated, post("/engine/v9/x", null, "ab")));
        assertFalse(unauthenticated.finishAndReleaseAll());

        // the longest prefix wins: /engine/x/ takes no body and needs no JWT
        EmbeddedChannel longest = channel(FALLBACKS);
        assertEquals(
                "HTTP/1.1 413 Request Entity Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
                        + "content-length: 13\r\nconnection: close\r\n\r\nnone here: 2\n",
                exchange(longest, post("/engine/x/y", null, "ab")));
        assertFalse(longest.finishAndReleaseAll());
    }

    @Test
    void aFallbackLeavesTheTablesPathsAndOtherPrefixesAsTheyWere() {
        String[][] cases = {
            {
                "GET /engine/guarded HTTP/1.1\r\nHost: t\r\n\r\n",
                "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\nallow: POST\r\n\r\n"
            },
            {
                post("/engine", "Bearer good", "ab"),
                "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            },
            {
                post("/other/", "Bearer good", "ab"),
                "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            },
        };
        for (String[] refused : cases) {
            EmbeddedChannel channel = channel(FALLBACKS);
            assertEquals(refused[1], exchange(channel, refused[0]), refused[0]);
            assertFalse(channel.isOpen(), refused[0]);
            assertFalse(channel.finishAndReleaseAll());
        }
        RouteTable.Builder builder = RouteTable.builder().fallback("/engine/", new Echo(true, 1, null));
        assertThrows(IllegalArgumentException.class, () -> builder.fallback("/engine/", new Echo(true, 1, null)));
        assertThrows(IllegalArgumentException.class, () -> builder.fallback("engine/", new Echo(true, 1, null)));
    }

    @Test
    void aPathHasOneRoutePerMethod() {
        RouteTable.Builder builder = RouteTable.builder().add(HttpMethod.POST, "/", new Echo(true, 1, null));
        assertThrows(IllegalArgumentException.class, () -> builder.add(HttpMethod.POST, "/", new Echo(true, 1, null)));
        assertThrows(IllegalArgumentException.class, () -> builder.add(HttpMethod.GET, "/?x", new Echo(true, 1, null)));
        assertThrows(IllegalArgumentException.class, () -> builder.add(HttpMethod.GET, "x", new Echo(true, 1, null)));
    }
}
