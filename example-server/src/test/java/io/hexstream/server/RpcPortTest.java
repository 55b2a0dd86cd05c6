package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.dataReply;
import static io.hexstream.server.testing.EngineClient.errorReply;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.TestBlobs;
import io.hexstream.server.tx.BlobTransaction;
import io.hexstream.server.tx.BlobTransactionDecoder;
import io.hexstream.server.tx.IngestWork;
import io.hexstream.server.tx.TransactionRefusedException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;

/**
 * {@code --rpc-port}, the port without JWT: it serves {@code eth_sendRawTransaction} and no {@code engine_} method, has
 * its own connection places ({@code --rpc-max-connections}) and half of the ingest queue, and what it pools holds at
 * most half of the pool, evicts only its own kind (also after a restart) and at most 16 transactions per sender.
 */
class RpcPortTest {
    /** A type-0 byte: a call that runs (and is refused at once) when the ingest lets it. */
    private static final byte[] NOT_A_TX = {0};

    private static final String SENDER = "0x" + Keys.getAddress(BlobTransactionBuilder.KEY.getPublicKey());

    @TempDir
    Path data;

    private static String key(BlobTransactionBuilder tx) {
        return PoolItem.keyOf(tx.hash());
    }

    private static BlobTransactionBuilder tx(BlobEntry blob, long nonce) {
        return BlobTransactionBuilder.withCellProofs(List.of(blob)).nonce(nonce);
    }

    private static void send(EngineClient port, BlobTransactionBuilder tx) {
        assertEquals(dataReply(1, tx.hash()), port.sendRawTransaction(tx.build()));
    }

    private static String poolRefusal(String reason) {
        return errorReply(1, -32000, "Server error: " + reason);
    }

    @Test
    void engineMethodsAreNotFoundThere() {
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data)) {
            EngineClient open = server.withoutJwt();
            String hashes = hashParams(List.of(TestBlobs.first(1).get(0).versionedHash()));
            for (String method : List.of("engine_getBlobsV1", "engine_getBlobsV2", "engine_getBlobsV3")) {
                assertEquals(
                        errorReply(1, -32601, "Method not found: " + method),
                        body(open.post(request(1, method, hashes))),
                        method);
            }
            assertEquals(
                    errorReply(1, -32601, "Method not found: engine_getBlobsV4"),
                    body(open.post(request(1, "engine_getBlobsV4", hashes.replace("]]", "],[0]]")))));
            assertEquals(
                    errorReply(1, -32601, "Method not found: engine_exchangeCapabilities"),
                    body(open.post(request(1, "engine_exchangeCapabilities", "[[]]"))));
            BlobEntry blob = TestBlobs.first(1).get(0);
            send(open, tx(blob, 0)); // served there, and what it pools is served on the Engine API port
            assertBlobAndProofV2(
                    blob, server.getBlobs("V3", List.of(blob.versionedHash())).get(0));
        }
    }

    /**
     * A pool of 4 blobs, so 2 for the port without JWT. Two Engine API transactions and two through the open port fill
     * it; a third through the open port evicts the oldest of its own, not the oldest of all; one larger than the share
     * and one that would need an Engine API blob evicted are refused, changing nothing. Blobs compared with the pool's
     * entries. The Engine API port's transactions evict the oldest of any origin.
     */
    @Test
    void itsTransactionsHoldHalfThePoolAndEvictOnlyTheirOwn() {
        List<BlobEntry> blobs = TestBlobs.first(8);
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data, "--pool-max-blobs", "4")) {
            EngineClient open = server.withoutJwt();
            BlobTransactionBuilder t0 = tx(blobs.get(0), 0);
            BlobTransactionBuilder t1 = tx(blobs.get(1), 1);
            BlobTransactionBuilder u1 = tx(blobs.get(2), 2);
            BlobTransactionBuilder u2 = tx(blobs.get(3), 3);
            BlobTransactionBuilder u3 = tx(blobs.get(4), 4);
            send(server, t0);
            send(server, t1);
            send(open, u1);
            send(open, u2);
            send(open, u3);
            assertEquals(
                    List.of(key(t0), key(t1), key(u2), key(u3)),
                    server.server().pool().itemKeys());
            assertEquals(4, server.server().pool().size());
            List<VersionedHash> asked = List.of(
                    blobs.get(0).versionedHash(),
                    blobs.get(1).versionedHash(),
                    blobs.get(2).versionedHash(),
                    blobs.get(3).versionedHash(),
                    blobs.get(4).versionedHash());
            var served = server.getBlobs("V3", asked);
            assertBlobAndProofV2(blobs.get(0), served.get(0));
            assertBlobAndProofV2(blobs.get(1), served.get(1));
            assertTrue(served.get(2).isNull(), "u1, the oldest of the open port's, went");
            assertBlobAndProofV2(blobs.get(3), served.get(3));
            assertBlobAndProofV2(blobs.get(4), served.get(4));

            List<List<String>> before = server.poolState();
            BlobTransactionBuilder large =
                    BlobTransactionBuilder.withCellProofs(blobs.subList(5, 8)).nonce(5);
            assertEquals(
                    poolRefusal("pool share: 3 blobs, more than the 2 of the pool's 4 that ports without JWT may fill"),
                    open.sendRawTransaction(large.build()));
            assertEquals(before, server.poolState());

            List<String> engineOnly = new ArrayList<>();
            for (int i = 5; i < 9; i++) { // Engine API transactions evict the oldest of any origin: all go
                BlobTransactionBuilder t = tx(blobs.get(i == 8 ? 2 : i), i);
                send(server, t);
                engineOnly.add(key(t));
            }
            assertEquals(engineOnly, server.server().pool().itemKeys());
            before = server.poolState();
            assertEquals(
                    poolRefusal("pool share: the pool is full: its 4 blobs would have to lose some that came through"
                            + " the Engine API port, and ports without JWT evict only their own"),
                    open.sendRawTransaction(tx(blobs.get(3), 9).build()));
            assertEquals(before, server.poolState());
        }
    }

    /** The origin is kept on disk: after a restart the open port's transaction still evicts its own kind only. */
    @Test
    void theOriginSurvivesARestart() {
        List<BlobEntry> blobs = TestBlobs.first(4);
        BlobTransactionBuilder t0 = tx(blobs.get(0), 0);
        BlobTransactionBuilder u1 = tx(blobs.get(1), 1);
        BlobTransactionBuilder u2 = tx(blobs.get(2), 2);
        BlobTransactionBuilder u3 = tx(blobs.get(3), 3);
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data, "--pool-max-blobs", "4")) {
            send(server, t0);
            send(server.withoutJwt(), u1);
            send(server.withoutJwt(), u2);
        }
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data, "--pool-max-blobs", "4")) {
            send(server.withoutJwt(), u3);
            assertEquals(
                    List.of(key(t0), key(u2), key(u3)), server.server().pool().itemKeys());
            assertBlobAndProofV2(
                    blobs.get(0),
                    server.getBlobs("V3", List.of(blobs.get(0).versionedHash())).get(0));
        }
    }

    /**
     * go-ethereum's limit: 16 transactions per sender through the open port; the 17th is refused (also one with the
     * nonce of a pooled one: the pool knows no nonces, so it would be one more), before and after a restart, changing
     * nothing; another sender, and the same sender through the Engine API port, are not limited by it.
     */
    @Test
    void atMostSixteenTransactionsPerSender() {
        BlobEntry blob = TestBlobs.first(1).get(0); // one blob shared by all: the pool's share is no limit here
        String refusal = poolRefusal("sender limit: " + SENDER
                + " has 16 transactions pooled from ports without JWT, at most 16 per sender");
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data)) {
            EngineClient open = server.withoutJwt();
            for (int nonce = 0; nonce < 16; nonce++) {
                send(open, tx(blob, nonce));
            }
            List<List<String>> before = server.poolState();
            assertEquals(17, before.get(2).size() + 1, "16 files");
            assertEquals(refusal, open.sendRawTransaction(tx(blob, 16).build()));
            assertEquals(
                    refusal,
                    open.sendRawTransaction(tx(TestBlobs.first(2).get(1), 3).build()),
                    "a pooled nonce");
            assertEquals(before, server.poolState());
            send(open, tx(blob, 0).key(ECKeyPair.create(BigInteger.valueOf(0x2121))));
            send(server, tx(blob, 16));
            assertEquals(18, server.server().pool().itemKeys().size());
        }
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data)) {
            List<List<String>> before = server.poolState();
            assertEquals(
                    refusal, server.withoutJwt().sendRawTransaction(tx(blob, 17).build()));
            assertEquals(before, server.poolState());
        }
    }

    /**
     * {@code --rpc-max-connections}: the open port's places are its own. With 2 each, two connections held open there
     * leave both Engine API places free, and a third to the open port is closed at accept.
     */
    @Test
    void itHasItsOwnConnectionPlaces() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.startEmpty(
                        Fork.OSAKA, data, "--max-connections", "2", "--rpc-max-connections", "2");
                HttpConnection open1 =
                        HttpConnection.open(server.server().rpcAddress().getPort());
                HttpConnection open2 =
                        HttpConnection.open(server.server().rpcAddress().getPort())) {
            String call = request(1, "eth_sendRawTransaction", "[\"0x00\"]");
            for (HttpConnection connection : List.of(open1, open2)) {
                connection.send(HttpConnection.post("unused", call));
                assertEquals(200, connection.readHead().status());
            }
            try (HttpConnection third =
                    HttpConnection.open(server.server().rpcAddress().getPort())) {
                assertTrue(third.closedByServerWithin(Duration.ofSeconds(2)), "the third to the open port is refused");
            }
            try (HttpConnection engine1 = HttpConnection.open(server.port());
                    HttpConnection engine2 = HttpConnection.open(server.port())) {
                for (HttpConnection connection : List.of(engine1, engine2)) {
                    connection.send(
                            HttpConnection.post(server.token(), request(1, "engine_exchangeCapabilities", "[[]]")));
                    assertEquals(200, connection.readHead().status());
                    assertFalse(connection.closedByServerWithin(Duration.ofMillis(100)));
                }
            }
        }
    }

    /**
     * Half of the ingest queue: with one ingest thread (16 places), a batch of 17 calls on the open port while the
     * ingest is held gets 8 places (one running, seven waiting) and 9 "server busy"; a batch of 10 on the Engine API
     * port then still gets the other 9 places, and one "server busy".
     */
    @Test
    void itTakesAtMostHalfTheIngestQueue() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        IngestWork held = new IngestWork() {
            @Override
            public BlobTransaction decode(byte[] raw) throws TransactionRefusedException {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return IngestWork.super.decode(raw);
            }
        };
        try (EngineServerFixture server = EngineServerFixture.startEmpty(
                Fork.OSAKA, data, new Seams(StoreFiles.SYSTEM, held), "--metrics-port", "0")) {
            CompletableFuture<String> open = null;
            CompletableFuture<String> engine = null;
            try {
                Scraper scraper = new Scraper(server.server().metricsAddress());
                open = CompletableFuture.supplyAsync(post(server.withoutJwt(), 17));
                awaitBusy(scraper, 9);
                engine = CompletableFuture.supplyAsync(post(server, 10));
                awaitBusy(scraper, 10);
            } finally {
                release.countDown();
            }
            String openReplies = open.get(30, TimeUnit.SECONDS);
            String engineReplies = engine.get(30, TimeUnit.SECONDS);
            String ran = "\"err\":\""
                    + assertThrows(TransactionRefusedException.class, () -> BlobTransactionDecoder.decode(NOT_A_TX))
                            .getMessage()
                    + "\"";
            assertEquals(9, count(openReplies, "\"err\":\"server busy\""), openReplies);
            assertEquals(8, count(openReplies, ran), openReplies);
            assertEquals(1, count(engineReplies, "\"err\":\"server busy\""), engineReplies);
            assertEquals(9, count(engineReplies, ran), engineReplies);
        }
    }

    /** A batch of {@code n} calls of {@code eth_sendRawTransaction} that does not decode, posted to {@code port}. */
    private static Supplier<String> post(EngineClient port, int n) {
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(request(i, "eth_sendRawTransaction", "[\"" + Hex.encodeToString(NOT_A_TX, true) + "\"]"));
        }
        return () -> body(port.post("[" + String.join(",", calls) + "]"));
    }

    /** Waits until {@code busy} calls have been refused as "server busy" in all. */
    private static void awaitBusy(Scraper scraper, int busy) throws InterruptedException {
        String sample = "hexstream_limit_refusals_total{limit=\"" + ServerMetrics.Limit.SERVER_BUSY.label() + "\"}";
        Poll.within(() -> scraper.scrape().value(sample) >= busy, Duration.ofSeconds(10));
        assertEquals(busy, scraper.scrape().value(sample), "calls refused as server busy");
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    private static String body(HttpResponse<byte[]> response) {
        assertEquals(200, response.statusCode());
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
