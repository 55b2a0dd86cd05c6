package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerProcess;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that pipelines 10,000 {@code engine_getBlobsV2} requests (2.75 GB of replies) and reads nothing costs the
 * server (in a JVM of its own) at most 64 MiB of resident memory: it stops reading at {@code --max-pipelined} unwritten
 * responses. Once the client reads, every reply arrives, in order.
 */
@Tag("full") // the soak: -Pfull
class PipelinedMemoryTest {
    private static final int PIPELINED = 10_000;
    private static final long MAX_GROWTH = 64L << 20;
    /**
     * {@code {"jsonrpc":"2.0","id":} (22), the id, {@code ,"result":[} (11), one BlobAndProofV2 (275,096), {@code ]}}
     * (2).
     */
    private static final int REPLY_WITHOUT_ID = 22 + 11 + 275_096 + 2;

    @TempDir
    Path data;

    @Test
    void tenThousandUnreadRequestsCostBoundedMemoryAndAreAnsweredInOrder() throws Exception {
        List<VersionedHash> hashes = EngineServerFixture.copySharedPool(data);
        try (ServerProcess server = ServerProcess.start(data, data.resolve("server.log"));
                HttpConnection connection = HttpConnection.open(server.port())) {
            String params = hashParams(hashes.subList(0, 1));
            String token = server.client().token();
            for (int warm = 0; warm < 50; warm++) {
                connection.send(HttpConnection.post(token, request(warm, "engine_getBlobsV2", params)));
                connection.readBody(connection.readHead());
            }
            long before = server.peakResidentBytes();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int id = 0; id < PIPELINED; id++) {
                all.writeBytes(HttpConnection.post(token, request(id, "engine_getBlobsV2", params)));
            }
            byte[] requests = all.toByteArray();
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try {
                    connection.send(requests); // blocks once the server stops reading
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Thread.sleep(5_000); // a slow peer that never reads: the server takes what it may, and waits
            long growth = server.peakResidentBytes() - before;
            Measurements.report(
                    "pipelined unread: %d requests sent, server peak RSS %.1f MiB before, grew %.1f MiB%n",
                    PIPELINED, before / 1048576.0, growth / 1048576.0);
            assertTrue(before > 0, "VmHWM readable");
            assertTrue(growth <= MAX_GROWTH, "grew " + growth + " bytes");

            for (int id = 0; id < PIPELINED; id++) {
                HttpConnection.Head head = connection.readHead();
                assertEquals(200, head.status());
                String idText = Integer.toString(id);
                assertEquals(REPLY_WITHOUT_ID + idText.length(), head.contentLength(), "reply " + id);
                String start = new String(connection.readExactly(22 + idText.length() + 1), US_ASCII);
                assertEquals("{\"jsonrpc\":\"2.0\",\"id\":" + idText + ",", start, "in order");
                connection.discard(head.contentLength() - start.length());
            }
            written.get(30, TimeUnit.SECONDS);
            assertTrue(!server.log().contains("LEAK"), server.log());
        }
    }
}
