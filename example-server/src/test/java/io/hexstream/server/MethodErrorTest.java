package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.errorReply;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.testing.CapturedLog;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.tx.BlobTransaction;
import io.hexstream.server.tx.IngestWork;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link Error} thrown by a method, here on the ingest thread (the decode seam of {@code eth_sendRawTransaction}),
 * is replied {@code -32603 Internal error} and logged once; the connection serves on, the request pipelined behind it
 * answered, and the next one too.
 */
class MethodErrorTest {
    /** What the seam's error says: found once in the log. */
    private static final String REASON = "thrown by the decode seam of MethodErrorTest";

    private static final String MISSING_HASH = "\"0x01" + "cd".repeat(31) + "\"";

    @TempDir
    Path data;

    private final AtomicInteger decodes = new AtomicInteger();

    /** Decoding throws an {@link Error}, as an {@link OutOfMemoryError} or a {@link StackOverflowError} would be. */
    private final IngestWork failing = new IngestWork() {
        @Override
        public BlobTransaction decode(byte[] raw) {
            decodes.incrementAndGet();
            throw new StackOverflowError(REASON);
        }
    };

    @Test
    void anErrorOnTheIngestThreadIsAnInternalErrorAndTheConnectionServesOn() throws Exception {
        String logged;
        try (CapturedLog log = CapturedLog.start(); // the injected errors' log, stack traces and all
                EngineServerFixture server =
                        EngineServerFixture.startEmpty(Fork.OSAKA, data, new Seams(StoreFiles.SYSTEM, failing));
                HttpConnection connection = HttpConnection.open(server.port())) {
            connection.socket().setSoTimeout(10_000);
            String token = server.token();
            byte[] first = HttpConnection.post(token, request(1, "eth_sendRawTransaction", "[\"0x03f8\"]"));
            byte[] second = HttpConnection.post(token, request(2, "engine_getBlobsV3", "[[" + MISSING_HASH + "]]"));
            byte[] pipelined = new byte[first.length + second.length];
            System.arraycopy(first, 0, pipelined, 0, first.length);
            System.arraycopy(second, 0, pipelined, first.length, second.length);
            connection.send(pipelined);

            assertEquals(errorReply(1, -32603, "Internal error"), body(connection));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[null]}", body(connection));

            connection.send(HttpConnection.post(token, request(3, "eth_sendRawTransaction", "[\"0x03f9\"]")));
            assertEquals(errorReply(3, -32603, "Internal error"), body(connection));
            assertEquals(2, decodes.get());
            logged = log.text();
        }
        assertEquals(2, occurrences(logged, REASON), "each error's reason logged once:\n" + logged);
        assertEquals(2, occurrences(logged, "eth_sendRawTransaction failed"), logged);
    }

    private static String body(HttpConnection connection) throws Exception {
        HttpConnection.Head head = connection.readHead();
        assertEquals(200, head.status(), head.text());
        return new String(connection.readBody(head), US_ASCII);
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
