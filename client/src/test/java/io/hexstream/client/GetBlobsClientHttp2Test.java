package io.hexstream.client;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.testing.CannedHttp2Server;
import io.hexstream.client.testing.CannedHttp2Server.Reply;
import io.hexstream.client.testing.CannedHttp2Server.Request;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.client.testing.CollectedEntries;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.Responses.Cells;
import io.hexstream.client.testing.SszBodies;
import io.netty.handler.codec.http2.Http2Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GetBlobsClient} over h2c with prior knowledge against a server of Netty's HTTP/2 frame codec
 * ({@link CannedHttp2Server}) answering in DATA frames of 1,000 bytes: JSON-RPC (written by Jackson) and SSZ (built by
 * hand, {@link SszBodies}) results of V1, V2 and V4 give the bytes they were made from; 8 calls are 8 streams open at
 * once on one connection, each with its own token java-jwt verifies; a 401, or a reset mid-body, fails its own call
 * only; a server window of 16 KiB still carries a request larger than it; the client advertises a window of at least 1
 * MiB and opens the connection's to match; paced streams pause and resume; IPC over a Unix domain socket.
 */
class GetBlobsClientHttp2Test {
    private static final byte[] SECRET = Responses.bytes(new Random(34), 32);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int FRAME = 1_000;

    private final Random random = new Random(2);
    private final List<Blob> v2Blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
    private final List<Blob> v1Blobs = List.of(Responses.blob(random, 1), Responses.blob(random, 1));
    private final List<Cells> cells = List.of(Responses.cells(random, 2, 0));
    private final byte[] allCells = Responses.bytes(random, 128 * BlobSizes.CELL_SIZE);
    private final byte[] allCellProofs = Responses.bytes(random, 128 * BlobSizes.PROOF_SIZE);

    @Test
    void jsonResultsOfV1V2AndV4GiveTheirBytes() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, FRAME);
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            assertBlobs(v1Blobs, client, Responses.call(BlobsMethod.V1, 2, null));
            assertBlobs(v2Blobs, client, Responses.call(BlobsMethod.V2, 2, null));
            CollectedEntries got = new CollectedEntries();
            client.call(Responses.call(BlobsMethod.V4, 2, bitarray(0, 70)), got).get(30, TimeUnit.SECONDS);

            assertEquals(List.of("cells 0 [0, 70]", "missing 1"), got.told);
            assertArrayEquals(Responses.concat(cells.get(0).cells()), got.blobs.get(0));
            assertArrayEquals(Responses.concat(cells.get(0).proofs()), got.proofs.get(0));
            assertEquals(1, server.connections());
            assertEquals(3, server.requests().size());
            for (Request request : server.requests()) {
                assertEquals("POST", request.headers().get(":method"));
                assertEquals("/", request.headers().get(":path"));
                assertEquals("127.0.0.1:" + server.port(), request.headers().get(":authority"));
                assertNull(request.headers().get("host"));
                verify(request);
            }
        }
    }

    @Test
    void sszResultsOfV1V2AndV4GiveTheirBytes() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(this::ssz, FRAME);
                GetBlobsClient client = client(server, true, new JwtSigner(SECRET))) {
            assertBlobs(v1Blobs, client, Responses.call(BlobsMethod.V1, 2, null));
            assertBlobs(v2Blobs, client, Responses.call(BlobsMethod.V2, 2, null));
            CollectedEntries got = new CollectedEntries();
            client.call(Responses.call(BlobsMethod.V4, 2, bitarray(0, 5)), got).get(30, TimeUnit.SECONDS);

            assertEquals(List.of("cells 0 [0, 5]", "missing 1"), got.told);
            assertArrayEquals(
                    Responses.concat(List.of(Responses.cell(allCells, 0, 2048), Responses.cell(allCells, 5, 2048))),
                    got.blobs.get(0));
            assertArrayEquals(
                    Responses.concat(
                            List.of(Responses.cell(allCellProofs, 0, 48), Responses.cell(allCellProofs, 5, 48))),
                    got.proofs.get(0));
            assertEquals(
                    List.of("/engine/v1/blobs/v1", "/engine/v1/blobs/v2", "/engine/v1/blobs/v4"),
                    server.requests().stream()
                            .map(r -> r.headers().get(":path"))
                            .toList());
            assertEquals(1, server.connections());
        }
    }

    /** The server answers none until all 8 are in: the 8 calls are 8 streams open at once. */
    @Test
    void eightCallsAreEightStreamsOnOneConnectionEachWithItsOwnToken() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, FRAME, 8, Http2Settings.defaultSettings());
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            List<CompletableFuture<BlobsOutcome>> outcomes = new ArrayList<>();
            List<CollectedEntries> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(new CollectedEntries());
                outcomes.add(client.call(Responses.call(BlobsMethod.V2, 2, null), got.get(i)));
            }
            for (int i = 0; i < 8; i++) {
                BlobsOutcome outcome = outcomes.get(i).get(30, TimeUnit.SECONDS);
                assertEquals(2, outcome.available());
                assertEquals(
                        Responses.response((long) i + 1, Responses.blobEntries(v2Blobs, false)).length,
                        outcome.bodyBytes());
                assertBlobs(v2Blobs, got.get(i));
            }
            assertEquals(1, server.connections());
            assertEquals(8, server.requests().size());
            server.requests().forEach(GetBlobsClientHttp2Test::verify);
        }
    }

    /** The server's {@code MAX_CONCURRENT_STREAMS} of 2 and the client's own bound of 3: 6 calls all answered. */
    @Test
    void streamsBeyondTheServersLimitWaitTheirTurn() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(
                        this::json, FRAME, 1, Http2Settings.defaultSettings().maxConcurrentStreams(2));
                GetBlobsClient client = GetBlobsClient.builder(url(server))
                        .tokens(new JwtSigner(SECRET))
                        .http2(true)
                        .maxConcurrentStreams(3)
                        .build()) {
            List<CompletableFuture<BlobsOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                outcomes.add(client.call(Responses.call(BlobsMethod.V1, 2, null), new CollectedEntries()));
            }
            for (CompletableFuture<BlobsOutcome> outcome : outcomes) {
                assertEquals(2, outcome.get(30, TimeUnit.SECONDS).available());
            }
            assertEquals(1, server.connections());
        }
    }

    @Test
    void aRefusalOnOneStreamFailsThatCallOnly() throws Exception {
        JwtSigner signer = new JwtSigner(SECRET);
        AtomicInteger n = new AtomicInteger();
        Supplier<String> tokens = () -> n.incrementAndGet() == 2 ? "not.a.token" : signer.get();
        try (CannedHttp2Server server = new CannedHttp2Server(
                        request -> authorized(request) ? json(request) : refusal(), FRAME, 4, new Http2Settings());
                GetBlobsClient client = client(server, false, tokens)) {
            assertOnlyTheSecondCallFails(
                    client, 4, BadResponseException.class, "HTTP 401 Unauthorized: wrong signature");
            assertEquals(1, server.connections());
        }
    }

    /** The second call's body is cut after 100,000 bytes by {@code RST_STREAM}: that call fails, the others go on. */
    @Test
    void aStreamResetMidBodyFailsThatCallOnly() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(
                        request -> {
                            Reply whole = json(request);
                            return id(request) == 2
                                    ? new Reply(200, whole.contentType(), whole.body(), 100_000, false)
                                    : whole;
                        },
                        FRAME,
                        3,
                        new Http2Settings());
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            assertOnlyTheSecondCallFails(client, 3, IOException.class, "stream reset by the server: CANCEL");
            assertEquals(1, server.connections());
        }
    }

    /** The first reply comes after a {@code GOAWAY}: it completes, and the next call goes on a new connection. */
    @Test
    void afterTheServersGoAwayTheNextCallGoesOnANewConnection() throws Exception {
        AtomicInteger answered = new AtomicInteger();
        try (CannedHttp2Server server = new CannedHttp2Server(
                        request -> {
                            Reply whole = json(request);
                            return answered.getAndIncrement() == 0
                                    ? new Reply(200, whole.contentType(), whole.body(), -1, true)
                                    : whole;
                        },
                        FRAME);
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            assertBlobs(v2Blobs, client, Responses.call(BlobsMethod.V2, 2, null));
            assertBlobs(v2Blobs, client, Responses.call(BlobsMethod.V2, 2, null));

            assertEquals(2, server.connections());
        }
    }

    /** 600 hashes: a request of about 42 KB, sent as the server's 16 KiB windows open; the reply read whole. */
    @Test
    void aServerWindowOf16KiBCarriesALargerRequest() throws Exception {
        try (CannedHttp2Server server =
                        new CannedHttp2Server(this::json, FRAME, 1, new Http2Settings().initialWindowSize(16 * 1024));
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            GetBlobsCall call = Responses.call(BlobsMethod.V1, 600, null);
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome = client.call(call, got).get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(600, got.told.size());
            assertArrayEquals(
                    JsonGetBlobs.requestBody(call, 1), server.requests().get(0).body());
            assertTrue(server.requests().get(0).body().length > 2 * 16 * 1024);
            assertBlobs(v1Blobs, got);
        }
    }

    @Test
    void theClientAdvertisesAWindowOfAtLeast1MiBAndOpensTheConnectionsToMatch() throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, FRAME);
                GetBlobsClient client = client(server, false, new JwtSigner(SECRET))) {
            assertBlobs(v1Blobs, client, Responses.call(BlobsMethod.V1, 2, null));

            Http2Settings settings = server.clientSettings();
            assertTrue(settings.initialWindowSize() >= 1 << 20, settings.toString());
            assertEquals(GetBlobsClient.MAX_HEADER_LIST_SIZE, settings.maxHeaderListSize());
            assertFalse(settings.pushEnabled());
            assertNull(settings.maxFrameSize()); // HTTP/2's default, 16,384
            assertTrue(server.connectionWindow() >= 1 << 20, Integer.toString(server.connectionWindow()));
        }
    }

    /** A paced client whose listener pauses at each call's first entry; the test resumes once both have paused. */
    @Test
    void pacedStreamsPauseAndResume() throws Exception {
        CountDownLatch paused = new CountDownLatch(2);
        GetBlobsClient[] holder = new GetBlobsClient[1];
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, FRAME, 2, new Http2Settings());
                GetBlobsClient client = GetBlobsClient.builder(url(server))
                        .tokens(new JwtSigner(SECRET))
                        .http2(true)
                        .paced(true)
                        .build()) {
            holder[0] = client;
            List<CollectedEntries> got = new ArrayList<>();
            List<CompletableFuture<BlobsOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                CollectedEntries entries = new CollectedEntries();
                BlobsListener pausing = new BlobsListener() {
                    @Override
                    public void blob(int index, BlobAndProofs entry) {
                        entries.blob(index, entry);
                        if (index == 0) {
                            holder[0].pause();
                            paused.countDown();
                        }
                    }
                };
                got.add(entries);
                outcomes.add(client.call(Responses.call(BlobsMethod.V2, 2, null), pausing));
            }
            assertTrue(paused.await(30, TimeUnit.SECONDS));
            client.resume();
            for (int i = 0; i < 2; i++) {
                assertEquals(2, outcomes.get(i).get(30, TimeUnit.SECONDS).available());
                assertBlobs(v2Blobs, got.get(i));
            }
        }
    }

    /** Closed while both streams are paused with frames held: both calls fail, and no buffer is left behind. */
    @Test
    void closingWhilePausedFailsTheCallsAndReleasesWhatTheStreamsHold() throws Exception {
        CountDownLatch paused = new CountDownLatch(2);
        GetBlobsClient[] holder = new GetBlobsClient[1];
        List<CompletableFuture<BlobsOutcome>> outcomes = new ArrayList<>();
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, FRAME, 2, new Http2Settings());
                GetBlobsClient client = GetBlobsClient.builder(url(server))
                        .tokens(new JwtSigner(SECRET))
                        .http2(true)
                        .paced(true)
                        .build()) {
            holder[0] = client;
            for (int i = 0; i < 2; i++) {
                CollectedEntries entries = new CollectedEntries();
                outcomes.add(client.call(Responses.call(BlobsMethod.V2, 2, null), new BlobsListener() {
                    @Override
                    public void blob(int index, BlobAndProofs entry) {
                        entries.blob(index, entry);
                        holder[0].pause();
                        paused.countDown();
                    }
                }));
            }
            assertTrue(paused.await(30, TimeUnit.SECONDS));
        }
        for (CompletableFuture<BlobsOutcome> outcome : outcomes) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> outcome.get(30, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void overIpcWithoutTokens(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("engine.ipc");
        try (CannedHttp2Server server = new CannedHttp2Server(socket, this::json, FRAME);
                GetBlobsClient client = GetBlobsClient.builder(EndpointUrl.parse("http://localhost/"))
                        .ipcPath(socket)
                        .http2(true)
                        .build()) {
            assertBlobs(v2Blobs, client, Responses.call(BlobsMethod.V2, 2, null));

            assertNull(server.requests().get(0).headers().get("authorization"));
            assertEquals("localhost", server.requests().get(0).headers().get(":authority"));
        }
    }

    /** An HTTP/1.1 server answers the preface with a 400: one line, no call made. */
    @Test
    void aServerWithoutHttp2IsOneLine() throws Exception {
        byte[] answer = CannedHttpServer.contentLength(400, "text/plain", "bad request".getBytes(US_ASCII));
        try (CannedHttpServer server = new CannedHttpServer(n -> answer);
                GetBlobsClient client = GetBlobsClient.builder(
                                EndpointUrl.parse("http://127.0.0.1:" + server.port() + "/"))
                        .tokens(new JwtSigner(SECRET))
                        .http2(true)
                        .build()) {
            IOException e = assertThrows(
                    IOException.class,
                    () -> client.call(Responses.call(BlobsMethod.V2, 2, null), new CollectedEntries()));
            assertTrue(
                    e.getMessage().startsWith("no HTTP/2 (h2c) at 127.0.0.1:" + server.port() + ": "), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    // ---------------------------------------------------------------- the server's answers

    /** A JSON-RPC result for the method asked, its id the request's: V1's and V2's blobs, V4's cells. */
    private Reply json(Request request) {
        String body = new String(request.body(), US_ASCII);
        Object result;
        if (body.contains("engine_getBlobsV4")) {
            List<Object> entries = new ArrayList<>(Responses.cellEntries(cells));
            entries.add(null);
            result = entries;
        } else if (body.contains("engine_getBlobsV1")) {
            List<Object> entries = new ArrayList<>(Responses.blobEntries(v1Blobs, true));
            int asked = hashes(request);
            entries.addAll(Collections.nCopies(asked - v1Blobs.size(), null));
            result = entries;
        } else {
            result = Responses.blobEntries(v2Blobs, false);
        }
        return Reply.of(200, "application/json", Responses.response(id(request), result));
    }

    private Reply ssz(Request request) {
        String path = request.headers().get(":path");
        byte[] body = switch (path) {
            case "/engine/v1/blobs/v1" -> SszBodies.v1(v1Blobs);
            case "/engine/v1/blobs/v2" -> SszBodies.v2(v2Blobs);
            case "/engine/v1/blobs/v4" -> SszBodies.v4(allCells, allCellProofs, new int[] {0, 5}, new int[] {0, 5});
            default -> throw new IllegalArgumentException(path);
        };
        return Reply.of(200, "application/octet-stream", body);
    }

    private static Reply refusal() {
        return Reply.of(401, "text/plain; charset=utf-8", "wrong signature".getBytes(US_ASCII));
    }

    private static long id(Request request) {
        try {
            return MAPPER.readTree(request.body()).get("id").asLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int hashes(Request request) {
        try {
            return MAPPER.readTree(request.body()).get("params").get(0).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean authorized(Request request) {
        try {
            verify(request);
            return true;
        } catch (JWTVerificationException e) {
            return false;
        }
    }

    /** The request's bearer token, verified by java-jwt against the secret. */
    private static void verify(Request request) {
        String authorization = request.headers().get("authorization");
        assertTrue(authorization != null && authorization.startsWith("Bearer "), authorization);
        JWT.require(Algorithm.HMAC256(SECRET)).build().verify(authorization.substring(7));
    }

    // ---------------------------------------------------------------- the client's side

    private static EndpointUrl url(CannedHttp2Server server) {
        return EndpointUrl.parse("http://127.0.0.1:" + server.port() + "/");
    }

    private static GetBlobsClient client(CannedHttp2Server server, boolean ssz, Supplier<String> tokens) {
        return GetBlobsClient.builder(url(server))
                .tokens(tokens)
                .ssz(ssz)
                .http2(true)
                .build();
    }

    private static void assertBlobs(List<Blob> expected, GetBlobsClient client, GetBlobsCall call) throws Exception {
        CollectedEntries got = new CollectedEntries();
        BlobsOutcome outcome = client.call(call, got).get(30, TimeUnit.SECONDS);
        assertEquals(expected.size(), outcome.available());
        assertBlobs(expected, got);
    }

    /**
     * Makes {@code calls} calls of two blobs (V2) at once: the second fails with a {@code failure} saying
     * {@code message}, every other gets {@link #v2Blobs}.
     */
    private void assertOnlyTheSecondCallFails(
            GetBlobsClient client, int calls, Class<? extends Throwable> failure, String message) throws Exception {
        List<CompletableFuture<BlobsOutcome>> outcomes = new ArrayList<>();
        List<CollectedEntries> got = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            got.add(new CollectedEntries());
            outcomes.add(client.call(Responses.call(BlobsMethod.V2, 2, null), got.get(i)));
        }
        ExecutionException failed =
                assertThrows(ExecutionException.class, () -> outcomes.get(1).get(30, TimeUnit.SECONDS));
        assertEquals(message, assertInstanceOf(failure, failed.getCause()).getMessage());
        for (int i = 0; i < calls; i++) {
            if (i != 1) {
                assertEquals(2, outcomes.get(i).get(30, TimeUnit.SECONDS).available());
                assertBlobs(v2Blobs, got.get(i));
            }
        }
    }

    private static void assertBlobs(List<Blob> expected, CollectedEntries got) {
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).blob(), got.blobs.get(i), "blob " + i);
            assertArrayEquals(Responses.concat(expected.get(i).proofs()), got.proofs.get(i), "proofs of " + i);
        }
    }

    private static byte[] bitarray(int... selected) {
        byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
        for (int cell : selected) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        return bits;
    }
}
