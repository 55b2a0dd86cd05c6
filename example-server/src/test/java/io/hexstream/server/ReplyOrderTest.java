package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.errorReply;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.HexDecoder;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.tx.BlobTransaction;
import io.hexstream.server.tx.BlobTransactionDecoder;
import io.hexstream.server.tx.IngestWork;
import io.hexstream.server.tx.TransactionRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every response on a keep-alive connection leaves in request order, those the HTTP layer makes itself included: with
 * request 1's reply held back (its transaction's decoding waits at a seam), request 2's {@code 100 Continue} or
 * {@code 413} is not written before it. Read from the raw byte stream.
 */
class ReplyOrderTest {
    private static final int MAX_REQUEST_BYTES = 4096;
    private static final String RAW = "0x03f8";
    private static final String MISSING_HASH = "\"0x01" + "cd".repeat(31) + "\"";

    @TempDir
    static Path data;

    private static EngineServerFixture server;
    private static volatile CountDownLatch gate;

    /** Decoding waits for the gate, then decodes. */
    private static final IngestWork HELD = new IngestWork() {
        @Override
        public BlobTransaction decode(byte[] raw) throws TransactionRefusedException {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return IngestWork.super.decode(raw);
        }
    };

    @BeforeAll
    static void start() {
        server = EngineServerFixture.startEmpty(
                Fork.OSAKA,
                data,
                new Seams(StoreFiles.SYSTEM, HELD),
                "--max-request-bytes",
                Integer.toString(MAX_REQUEST_BYTES));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void a100ContinueWaitsForTheReplyBeforeIt() throws Exception {
        gate = new CountDownLatch(1);
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            byte[] second =
                    request(2, "engine_getBlobsV3", "[[" + MISSING_HASH + "]]").getBytes(US_ASCII);
            connection.send(concat(
                    HttpConnection.post(server.token(), request(1, "eth_sendRawTransaction", "[\"" + RAW + "\"]")),
                    head("Expect: 100-continue\r\nContent-Length: " + second.length)));
            assertNothingWithin(connection, Duration.ofMillis(500));

            gate.countDown();
            assertEquals(firstReply(), body(connection));
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(connection.readExactly(25), US_ASCII));
            connection.send(second);
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[null]}", body(connection));
        }
    }

    @Test
    void aBodyGrownTooLargeIsAnswered413AfterTheReplyBeforeIt() throws Exception {
        gate = new CountDownLatch(1);
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            int chunk = MAX_REQUEST_BYTES + 1;
            ByteArrayOutputStream chunked = new ByteArrayOutputStream();
            chunked.write((Integer.toHexString(chunk) + "\r\n").getBytes(US_ASCII));
            chunked.write(new byte[chunk]);
            chunked.write("\r\n0\r\n\r\n".getBytes(US_ASCII));
            connection.send(concat(
                    HttpConnection.post(server.token(), request(1, "eth_sendRawTransaction", "[\"" + RAW + "\"]")),
                    head("Transfer-Encoding: chunked"),
                    chunked.toByteArray()));
            assertNothingWithin(connection, Duration.ofMillis(500));

            gate.countDown();
            assertEquals(firstReply(), body(connection));
            HttpConnection.Head tooLarge = connection.readHead();
            assertEquals(413, tooLarge.status(), tooLarge.text());
            assertEquals(0, tooLarge.contentLength());
            assertTrue(connection.closedByServerWithin(Duration.ofSeconds(5)));
        }
    }

    /** Request 1's reply: the decoder's own refusal of {@link #RAW}. */
    private static String firstReply() {
        TransactionRefusedException refused = assertThrows(
                TransactionRefusedException.class, () -> BlobTransactionDecoder.decode(HexDecoder.decode(RAW)));
        return errorReply(1, -32602, "Invalid params: " + refused.getMessage());
    }

    private static byte[] head(String framing) {
        return ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.token()
                        + "\r\nContent-Type: application/json\r\n" + framing + "\r\n\r\n")
                .getBytes(US_ASCII);
    }

    /** Nothing arrives for {@code quiet}: no response jumped ahead of the one held back. */
    private static void assertNothingWithin(HttpConnection connection, Duration quiet) throws IOException {
        connection.socket().setSoTimeout((int) quiet.toMillis());
        assertThrows(SocketTimeoutException.class, () -> {
            int b = connection.socket().getInputStream().read();
            throw new AssertionError("a response began before the one held back: byte " + b);
        });
        connection.socket().setSoTimeout(10_000);
    }

    private static String body(HttpConnection connection) throws IOException {
        HttpConnection.Head head = connection.readHead();
        assertEquals(200, head.status(), head.text());
        return new String(connection.readBody(head), US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
