package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.ServerSockets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The hex cache over a real server: the same bytes as encoding, its bound, its gauges, and nothing leaked. */
class HexCacheServerTest {
    /** One pooled blob's {@code BlobAndProofV2} element and its comma: 275,096 + 1. */
    private static final long ENTRY_BYTES = 275_097;

    private static final String MISSING = "0x01" + "00".repeat(31);

    private static EngineServerFixture cached;
    private static EngineServerFixture encoded;
    /** A 1 MiB cache: 3 of the 6 blobs, so a call over all of them falls back to encoding. */
    private static EngineServerFixture partly;

    private static EngineServerFixture cachedPrague;
    private static EngineServerFixture encodedPrague;

    @BeforeAll
    static void start() {
        cached = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0");
        encoded = EngineServerFixture.start(Fork.OSAKA, "--hex-cache-mib", "0");
        partly = EngineServerFixture.start(Fork.OSAKA, "--hex-cache-mib", "1");
        cachedPrague = EngineServerFixture.start(Fork.PRAGUE);
        encodedPrague = EngineServerFixture.start(Fork.PRAGUE, "--hex-cache-mib", "0");
    }

    @AfterAll
    static void stop() {
        for (EngineServerFixture server : List.of(cached, encoded, partly, cachedPrague, encodedPrague)) {
            server.close();
        }
    }

    @Test
    void cachedAndEncodedAnswersAreTheSameBytes() {
        List<Object> all = new ArrayList<>(cached.hashes());
        List<Object> withMisses = new ArrayList<>(List.of(MISSING, all.get(2), MISSING, all.get(0), all.get(5)));
        List<Object> someCached = List.of(all.get(5), all.get(4)); // the newest: in the 1 MiB cache
        List<String> requests = List.of(
                request(1, "engine_getBlobsV2", hashParams(all)),
                request(2, "engine_getBlobsV2", hashParams(cached.cycledHashes(128))),
                request(3, "engine_getBlobsV2", hashParams(withMisses)),
                request(4, "engine_getBlobsV3", hashParams(withMisses)),
                request(5, "engine_getBlobsV3", hashParams(someCached)),
                "[" + request(6, "engine_getBlobsV3", hashParams(all)) + ","
                        + request(7, "engine_getBlobsV2", hashParams(someCached)) + "]",
                request(8, "engine_getBlobsV4", v4Params(withMisses, CellFixtures.bitarray(0, 9, 63, 64, 127))),
                request(
                        9,
                        "engine_getBlobsV4",
                        v4Params(
                                all,
                                CellFixtures.bitarray(IntStream.range(0, 128).toArray()))),
                request(10, "engine_getBlobsV4", v4Params(someCached, CellFixtures.bitarray(1, 2, 3))));
        for (String request : requests) {
            byte[] expected = encoded.post(request).body();
            assertArrayEquals(expected, cached.post(request).body(), request.substring(0, 40));
            assertArrayEquals(expected, partly.post(request).body(), request.substring(0, 40));
        }
        // {"jsonrpc":"2.0","id":1,"result":[ (34) + 6 entries of 275,096 bytes + 5 commas + ]} (2)
        assertEquals(34 + 6 * 275_096 + 5 + 2, cached.post(requests.get(0)).body().length);
        assertEquals(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}",
                new String(cached.post(requests.get(2)).body(), java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** {@code engine_getBlobsV4}'s params: the hashes, then the cell bitarray. */
    private static String v4Params(List<Object> hashes, String bitarray) {
        String one = hashParams(hashes);
        return one.substring(0, one.length() - 1) + ",\"" + bitarray + "\"]";
    }

    @Test
    void cachedAndEncodedGetBlobsV1AreTheSameBytes() {
        List<Object> hashes = new ArrayList<>(cachedPrague.hashes());
        hashes.add(1, MISSING);
        String request = request(9, "engine_getBlobsV1", hashParams(hashes));
        byte[] expected = encodedPrague.post(request).body();
        assertArrayEquals(expected, cachedPrague.post(request).body());
        // {"jsonrpc":"2.0","id":9,"result":[ + 6 × {"blob":"0x…","proof":"0x…"} (262,266) + null + 6 commas + ]}
        assertEquals(34 + 6 * 262_266 + 4 + 6 + 2, expected.length);
        assertEquals(6, cachedPrague.server().hexCache().size());
    }

    @Test
    void theCacheHoldsTheNewestBlobsWithinItsBoundAndShowsItInTheMetrics() {
        assertEquals(6, cached.server().hexCache().size());
        assertEquals(6 * ENTRY_BYTES, cached.server().hexCache().bytes());
        assertEquals(3, partly.server().hexCache().size(), "1 MiB holds 3 entries of 275,097 bytes");
        assertEquals(3 * ENTRY_BYTES, partly.server().hexCache().bytes());
        List<BlobEntry> newest = pooled(partly).subList(3, 6);
        EncodedEntry[] held = partly.server().hexCache().retainAll(newest);
        try {
            assertNotNull(held, "the three loaded last are cached");
            for (int i = 0; i < newest.size(); i++) {
                assertDigits(newest.get(i), held[i]);
            }
        } finally {
            HexCache.releaseAll(held);
        }
        for (BlobEntry oldest : pooled(partly).subList(0, 3)) {
            assertNull(partly.server().hexCache().retainAll(List.of(oldest)), "the three oldest evicted");
        }

        Exposition metrics = new Scraper(cached.server().metricsAddress()).settled();
        assertEquals(6.0 * ENTRY_BYTES, metrics.value("hexstream_hex_cache_bytes"));
        assertEquals(6.0, metrics.value("hexstream_hex_cache_entries"));
    }

    @Test
    void zeroMebibytesIsNoCache() {
        assertNull(encoded.server().hexCache(), "no cache, so the pool tells no one and nothing is encoded ahead");
    }

    @Test
    void theOptionIs64MebibytesByDefaultAndAtLeastZero() {
        assertEquals(64, ServerOptions.parse().hexCacheMib);
        assertEquals(0, ServerOptions.parse("--hex-cache-mib", "0").hexCacheMib);
        assertThrows(CommandLine.ParameterException.class, () -> ServerOptions.parse("--hex-cache-mib", "-1"));
    }

    @Test
    void aClientHangingUpMidResponseFromTheCacheLeavesOnlyTheCachesReferences() throws Exception {
        String request = request(1, "engine_getBlobsV2", hashParams(cached.cycledHashes(128)));
        for (boolean reset : new boolean[] {false, true}) {
            HttpConnection connection = HttpConnection.open(cached.port());
            connection.send(HttpConnection.post(cached.token(), request));
            assertEquals(3_000_000, connection.discard(3_000_000));
            if (reset) {
                connection.abort();
            } else {
                connection.close();
            }
            assertEquals(0, ServerSockets.awaitAtMost(cached.port(), 0, Duration.ofSeconds(10)));
            Poll.within(() -> cacheReferences() == 6, Duration.ofSeconds(10));
            assertEquals(6, cacheReferences(), "the cache's one reference per blob buffer, no slice left");
        }
        assertTrue(cached.post(request).body().length > 35_000_000, "the next request answered");
    }

    /** References to the 6 cached blobs' digit buffers, besides this lookup's. */
    private static int cacheReferences() {
        EncodedEntry[] held = cached.server().hexCache().retainAll(pooled(cached));
        try {
            int references = 0;
            for (EncodedEntry entry : held) {
                references += entry.blob().refCnt() - 1;
            }
            return references;
        } finally {
            HexCache.releaseAll(held);
        }
    }

    /**
     * {@code encoded} is {@code entry}'s {@code BlobAndProofV2} element and a comma, its digits those of the pool's
     * bytes as the JDK's encoder writes them.
     */
    private static void assertDigits(BlobEntry entry, EncodedEntry encoded) {
        HexFormat hex = HexFormat.of();
        StringBuilder expected = new StringBuilder("{\"blob\":\"0x")
                .append(hex.formatHex(entry.blob()))
                .append("\",\"proofs\":[");
        for (int i = 0; i < 128; i++) {
            expected.append(i == 0 ? "\"0x" : ",\"0x")
                    .append(hex.formatHex(entry.cellProofs(), 48 * i, 48 * (i + 1)))
                    .append('"');
        }
        expected.append("]},");
        assertEquals(expected.toString(), encoded.element().toString(StandardCharsets.US_ASCII));
    }

    private static List<BlobEntry> pooled(EngineServerFixture server) {
        List<BlobEntry> entries = new ArrayList<>();
        for (VersionedHash hash : server.hashes()) {
            entries.add(server.server().pool().get(hash));
        }
        return entries;
    }
}
