package io.hexstream.server.http;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpMethod;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What a client without a valid JWT writes (the JWT header's {@code alg}, the request target, header values such as
 * {@code X-Engine-Client-Version} and {@code traceparent}) reaches neither the refusal log nor a refusal's body raw: a
 * newline, ESC and BEL come out as {@code \n}, {@code \x1b}, {@code \x07}, every line printable ASCII.
 */
class PeerTextInRefusalsTest {
    private static final String HOSTILE = "\u001b[31mX\nFAKE LOG LINE\u0007";

    private final List<String> logged = new ArrayList<>();
    /** A clock one second further on at each look, so that the refusal log writes every line. */
    private final AtomicLong nanos = new AtomicLong();

    private EmbeddedChannel channel() {
        RefusalLog log = new RefusalLog(() -> nanos.addAndGet(TimeUnit.SECONDS.toNanos(1)), logged::add);
        return new EmbeddedChannel(new EngineApiInitializer(
                RouteTable.builder()
                        .add(HttpMethod.POST, "/", new Route() {
                            @Override
                            public boolean needsJwt() {
                                return true;
                            }

                            @Override
                            public int maxBodyBytes() {
                                return 1024;
                            }

                            @Override
                            public void handle(ByteBuf body, ReplySink sink) {
                                throw new AssertionError("no request here is taken");
                            }
                        })
                        .build(),
                new JwtAuthenticator(new byte[32], Clock.systemUTC()),
                new EngineApiInitializer.Limits(1 << 20, 16, Duration.ZERO, Duration.ZERO),
                Runnable::run,
                log,
                ServerMetrics.NONE));
    }

    /** Sends {@code request} (its characters as bytes, ISO-8859-1) and returns what was written back. */
    private static String exchange(EmbeddedChannel channel, String request) {
        channel.writeInbound(Unpooled.copiedBuffer(request, ISO_8859_1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes).release();
            out.writeBytes(bytes);
        }
        assertFalse(channel.finishAndReleaseAll());
        return out.toString(ISO_8859_1);
    }

    private static String base64Url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(UTF_8));
    }

    @Test
    void aTokensAlgIsEscapedInThe401AndTheLog() {
        String alg = "{\"alg\":\""
                + HOSTILE.replace("\n", "\\n").replace("\u001b", "\\u001b").replace("\u0007", "\\u0007")
                + "\",\"typ\":\"JWT\"}";
        String token = base64Url(alg) + "." + base64Url("{}") + ".";
        String response = exchange(
                channel(),
                "POST / HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + token + "\r\nContent-Length: 0\r\n\r\n");
        String reason = "alg is \\x1b[31mX\\nFAKE LOG LINE\\x07, only HS256 is accepted";
        assertEquals(
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: "
                        + (reason.length() + 1) + "\r\nconnection: close\r\n\r\n" + reason + "\n",
                response);
        assertEquals(List.of("refused embedded: 401 for POST /: " + reason), logged);
    }

    @Test
    void aTargetAndHeaderValuesAreEscapedWhereverTheyAreQuoted() {
        List<String> requests = List.of(
                "POST /\u001b[2J\u0007x HTTP/1.1\r\nHost: t\r\n\r\n",
                "POST /\u009b31m HTTP/1.1\r\nHost: t\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: t\r\nX-Engine-Client-Version: a\u001b[31mb\u0007\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: t\r\ntraceparent: 00-\u001b\u0007\u009b-01\r\n\r\n",
                "POST / HTTP/1.1\r\nHost: t\r\nX-Engine-Client-Version: \u009b31m\u00e9\r\n\r\n");
        for (String request : requests) {
            String response = exchange(channel(), request);
            assertPrintable(response.substring(response.indexOf("\r\n\r\n") + 4), request);
        }
        assertEquals(requests.size(), logged.size(), String.join("\n", logged));
        for (String line : logged) {
            assertPrintable(line, line);
        }
        assertEquals("refused embedded: 404 for POST /\\x1b[2J\\x07x", logged.get(0));
        assertEquals("refused embedded: 404 for POST /\\x9b31m", logged.get(1));
    }

    /** Every character of {@code text} is printable ASCII, but for the one line feed that may end it. */
    private static void assertPrintable(String text, String what) {
        String line = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            assertTrue(c >= 0x20 && c < 0x7F, () -> "character " + (int) c + " in " + line + " for " + what);
        }
    }
}
