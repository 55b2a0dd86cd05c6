package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.1 framing as RFC 9112 and RFC 9110 say, sent as raw bytes over a socket: {@code Host} exactly once in HTTP/1.1
 * and never twice ({@code 400}), absolute-form targets routed by their path, a transfer coding other than
 * {@code chunked} {@code 501} (without {@code chunked} last {@code 400}), a major version other than 1 {@code 505} (a
 * later 1.x served as 1.1), and a chunked body held to its route's limit, not the port's ({@code 413} before the body
 * has even ended).
 */
class HttpFramingTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");
    private static EngineServerFixture server;
    private static String capabilities;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA);
        capabilities = new String(server.post(CALL).body(), UTF_8);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A {@code POST} of {@code CALL}, its request line {@code requestLine} and its headers {@code headers}. */
    private static String post(String requestLine, String headers) {
        return requestLine + "\r\n" + headers + "Authorization: Bearer " + server.token()
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + CALL.length()
                + "\r\n\r\n" + CALL;
    }

    /** Sends {@code request} and reads what comes back up to the end of the stream. */
    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), ISO_8859_1);
        }
    }

    private static String statusLine(String response) {
        return response.substring(0, Math.max(0, response.indexOf("\r\n")));
    }

    private static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void hostIsNeededOnceInHttp11NeverTwiceAndAHostIfThere() throws IOException {
        assertEquals(
                "HTTP/1.1 400 Bad Request", statusLine(exchange(post("POST / HTTP/1.1", ""))), "HTTP/1.1 without Host");
        String twice = exchange(post("POST / HTTP/1.1", "Host: a\r\nHost: b\r\n"));
        assertEquals("HTTP/1.1 400 Bad Request", statusLine(twice));
        assertEquals("Host more than once\n", body(twice));
        assertEquals(
                "HTTP/1.0 400 Bad Request",
                statusLine(exchange(post("POST / HTTP/1.0", "Host: a\r\nHost: a\r\n"))),
                "HTTP/1.0 with two");
        for (String invalid : List.of("a, b", "a b/c", "@evil", "user@host", "a:b:c", "a:80x", "[::1", "%zz")) {
            String response = exchange(post("POST / HTTP/1.1", "Host: " + invalid + "\r\n"));
            assertEquals("HTTP/1.1 400 Bad Request", statusLine(response), invalid);
            assertEquals("Host is not host[:port]: " + invalid + "\n", body(response), invalid);
        }
        for (String valid : List.of("", "localhost", "127.0.0.1:8551", "[::1]:8551", "[v1.x]", "ex%41mple.org", "a:")) {
            assertEquals(
                    "HTTP/1.1 200 OK",
                    statusLine(exchange(post("POST / HTTP/1.1", "Host: " + valid + "\r\n"))),
                    "Host: " + valid);
        }
        String http10 = exchange(post("POST / HTTP/1.0", ""));
        assertEquals("HTTP/1.0 200 OK", statusLine(http10), "HTTP/1.0 without Host is served");
        assertEquals(capabilities, body(http10));
    }

    @Test
    void anAbsoluteFormTargetIsRoutedByItsPath() throws IOException {
        for (String target : List.of(
                "http://127.0.0.1:" + server.port() + "/", "HTTP://localhost", "http://x?y=1", "https://x:1/?q")) {
            String response = exchange(post("POST " + target + " HTTP/1.1", "Host: 127.0.0.1\r\n"));
            assertEquals("HTTP/1.1 200 OK", statusLine(response), target);
            assertEquals(capabilities, body(response), target);
        }
        String ssz = exchange(
                "POST http://127.0.0.1/engine/v1/blobs/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Authorization: Bearer "
                        + server.token() + "\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n");
        assertEquals("HTTP/1.1 415 Unsupported Media Type", statusLine(ssz), "the SSZ route, by its path");
        assertEquals(
                "HTTP/1.1 404 Not Found",
                statusLine(exchange(post("POST http://127.0.0.1/nowhere HTTP/1.1", "Host: 127.0.0.1\r\n"))));
    }

    @Test
    void aTransferCodingOtherThanChunkedIs501() throws IOException {
        for (String coding : List.of(
                "gzip, chunked",
                "x-custom,chunked",
                "gzip\r\nTransfer-Encoding: chunked",
                "identity",
                "chunked, gzip")) {
            String response = exchange("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.token()
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: " + coding + "\r\n\r\n"
                    + Integer.toHexString(CALL.length()) + "\r\n" + CALL + "\r\n0\r\n\r\n");
            // RFC 9112 6.3: without chunked last the body's length is unknown, 400
            String expected = coding.endsWith("chunked") ? "HTTP/1.1 501 Not Implemented" : "HTTP/1.1 400 Bad Request";
            assertEquals(expected, statusLine(response), coding);
        }
        String chunked = exchange("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.token()
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(CALL.length()) + "\r\n" + CALL + "\r\n0\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", statusLine(chunked));
        assertEquals(capabilities, body(chunked));
    }

    /**
     * The HTTP/2 connection preface (RFC 9113 3.4) is answered with the server's SETTINGS frame (type 4, stream 0),
     * read by hand: SETTINGS_MAX_CONCURRENT_STREAMS (3) of --max-pipelined's 16, SETTINGS_INITIAL_WINDOW_SIZE (4) of 1
     * MiB (#793), SETTINGS_MAX_HEADER_LIST_SIZE (6) of 8192.
     */
    private static void assertHttp2Settings(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int length = in.readUnsignedShort() << 8 | in.readUnsignedByte();
            assertEquals(4, in.readUnsignedByte(), "a SETTINGS frame");
            assertEquals(0, in.readUnsignedByte(), "no flags");
            assertEquals(0, in.readInt(), "stream 0");
            Map<Integer, Long> settings = new TreeMap<>();
            for (int i = 0; i < length / 6; i++) {
                settings.put(in.readUnsignedShort(), in.readInt() & 0xFFFFFFFFL);
            }
            assertEquals(16L, settings.get(3));
            assertEquals(1L << 20, settings.get(4));
            assertEquals(8192L, settings.get(6));
        }
    }

    @Test
    void aMajorVersionOtherThanOneIs505AndALater1xIsServedAs11() throws IOException {
        for (String version : List.of("HTTP/3.0", "HTTP/2.0", "HTTP/0.9")) {
            assertEquals(
                    "HTTP/1.1 505 HTTP Version Not Supported",
                    statusLine(exchange(post("POST / " + version, "Host: 127.0.0.1\r\n"))),
                    version);
        }
        assertHttp2Settings(server.port()); // the HTTP/2 preface opens HTTP/2 (h2c with prior knowledge)
        String later = exchange(post("POST / HTTP/1.2", "Host: 127.0.0.1\r\n"));
        assertEquals("HTTP/1.1 200 OK", statusLine(later));
        assertEquals(capabilities, body(later));
    }

    @Test
    void aChunkedBodyIsHeldToItsRoutesLimitNotThePorts() throws Exception {
        // The SSZ route takes at most 4,100 bytes (4 + 128 versioned hashes); the port 16 MiB. The body never ends:
        // the 413 comes once its route's limit is passed.
        byte[] chunk = ("1000\r\n" + "a".repeat(4096) + "\r\n").getBytes(US_ASCII);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /engine/v1/blobs/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + server.token() + "\r\nContent-Type: application/octet-stream\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n")
                    .getBytes(US_ASCII));
            out.write(chunk);
            out.write(chunk);
            out.flush();
            InputStream in = socket.getInputStream();
            String status = "HTTP/1.1 413 Request Entity Too Large\r\n";
            assertEquals(status, new String(in.readNBytes(status.length()), US_ASCII));
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void authorizationTwiceIs400() throws IOException {
        String response = exchange(
                post("POST / HTTP/1.1", "Host: 127.0.0.1\r\nAuthorization: Bearer " + server.token() + "\r\n"));
        assertEquals("HTTP/1.1 400 Bad Request", statusLine(response));
        assertTrue(body(response).startsWith("Authorization more than once"), body(response));
    }
}
