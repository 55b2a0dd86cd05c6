package io.hexstream.server.metrics;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.RefusalLog;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.RouteTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code --access-log} with the request's {@code X-Engine-Client-Version} and W3C {@code traceparent} (execution-apis
 * #793, {@code refactor.md}, "Authentication"): requests through the HTTP/1.1 pipeline, the line read from the log. The
 * well-formed {@code traceparent} is the example of the W3C Trace Context Recommendation (its section 3.2); a malformed
 * one is left out, a hostile client version escaped and cut as {@code PeerText} documents.
 */
class AccessLogClientHeadersTest {
    /** The Recommendation's example value ("Value = 00-4bf92f35…-00f067aa0ba902b7-01"). */
    private static final String W3C_EXAMPLE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private static final Pattern ACCESS = Pattern.compile("(.*) ttlb_ms=\\d+\\.\\d (outcome=.*)");

    /** Answers {@code ok} with the summary of a getBlobsV2 of two hashes, one found. */
    private static final Route ANSWER = new Route() {
        @Override
        public boolean needsJwt() {
            return false;
        }

        @Override
        public int maxBodyBytes() {
            return 16;
        }

        @Override
        public void handle(ByteBuf body, ReplySink sink) {
            sink.respond(
                    HttpResponseStatus.OK,
                    "text/plain",
                    Unpooled.copiedBuffer("ok", ISO_8859_1),
                    new ResponseSummary("engine_getBlobsV2", 2, 1, null));
        }
    };

    @Test
    void aLineWithoutTheHeadersIsAsBefore() {
        assertEquals(List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok"), lines(""));
    }

    @Test
    void bothHeadersWellFormedAreLoggedAfterTheOutcome() {
        assertEquals(
                List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok traceparent=" + W3C_EXAMPLE
                        + " client_version=LH/v6.2.1"),
                lines("X-Engine-Client-Version: LH/v6.2.1\r\ntraceparent: " + W3C_EXAMPLE + "\r\n"));
        assertEquals(
                List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok traceparent=" + W3C_EXAMPLE),
                lines("Traceparent: " + W3C_EXAMPLE + "\r\n"));
    }

    @Test
    void aMalformedTraceparentIsDropped() {
        List<String> malformed = List.of(
                W3C_EXAMPLE.toUpperCase(Locale.ROOT), // upper-case hex
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // trace-id all zeros
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // parent-id all zeros
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // version ff
                W3C_EXAMPLE + "-x", // version 00 is exactly 55 characters
                W3C_EXAMPLE.substring(0, 54), // short
                "00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01", // not a dash
                "00-4bf92f3577b34da6a3ce929d0e0e47g6-00f067aa0ba902b7-01"); // not hex
        for (String value : malformed) {
            assertEquals(
                    List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok client_version=X"),
                    lines("X-Engine-Client-Version: X\r\ntraceparent: " + value + "\r\n"),
                    value);
        }
        // two traceparent headers: neither (section 3.2)
        assertEquals(
                List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok"),
                lines("traceparent: " + W3C_EXAMPLE + "\r\ntraceparent: " + W3C_EXAMPLE + "\r\n"));
        // a later version may carry more after a dash: its first 55 characters are kept
        assertEquals(
                "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                ResponseSummary.traceparent(List.of("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what")));
        assertNull(ResponseSummary.traceparent(List.of("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01what")));
    }

    @Test
    void aHostileClientVersionIsEscapedAndCut() {
        // 0x9b (CSI) 31m (red), é, 100 A: escaped to \x9b31m\xe9, then cut at 64 characters of output (the wire's
        // decoder refuses a control character such as ESC: a 400, before any route)
        String hostile = "\u009b31m\u00e9" + "A".repeat(100);
        String expected = "\\x9b31m\\xe9" + "A".repeat(64 - 11) + "...(" + (105 - 5 - 53) + " more chars)";
        assertEquals(
                List.of("engine_getBlobsV2 hashes=2 hits=1 bytes=2 outcome=ok client_version=" + expected),
                lines("X-Engine-Client-Version: " + hostile + "\r\n"));
    }

    /**
     * The access lines (time to last byte left out) of one request with {@code headers} (CRLF-ended lines): the lines
     * {@link AccessLog} makes of what the pipeline told its metrics (the test JVM logs at WARN only).
     */
    private static List<String> lines(String headers) {
        List<String> lines = new ArrayList<>();
        ServerMetrics told = (ServerMetrics) Proxy.newProxyInstance(
                ServerMetrics.class.getClassLoader(), new Class<?>[] {ServerMetrics.class}, (proxy, method, args) -> {
                    if (method.getName().equals("responded")) {
                        lines.add(AccessLog.line(
                                (String) args[0], (ResponseSummary) args[1], (long) args[2], (long) args[3], (boolean)
                                        args[4]));
                    }
                    return null;
                });
        EmbeddedChannel channel = new EmbeddedChannel(new EngineApiInitializer(
                RouteTable.builder().add(HttpMethod.POST, "/", ANSWER).build(),
                Authenticator.NONE,
                new EngineApiInitializer.Limits(1 << 10, 4, Duration.ZERO, Duration.ZERO),
                Runnable::run,
                new RefusalLog(),
                told));
        channel.writeInbound(Unpooled.copiedBuffer(
                "POST / HTTP/1.1\r\nHost: t\r\n" + headers + "Content-Length: 1\r\n\r\nx", ISO_8859_1));
        String response = read(channel);
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\nok"), response);
        assertFalse(channel.finishAndReleaseAll());
        return lines.stream()
                .map(line -> {
                    Matcher matcher = ACCESS.matcher(line);
                    assertTrue(matcher.matches(), line);
                    return matcher.group(1) + " " + matcher.group(2);
                })
                .toList();
    }

    /** Every byte written back, as ISO-8859-1. */
    private static String read(EmbeddedChannel channel) {
        StringBuilder out = new StringBuilder();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) msg;
            out.append(buf.toString(ISO_8859_1));
            buf.release();
        }
        return out.toString();
    }
}
