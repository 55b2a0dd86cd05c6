package io.hexstream.server.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.engine.BlobAndProofV1;
import io.hexstream.server.engine.BlobAndProofV2;
import io.hexstream.server.engine.ElementRenderer;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hex cache: exact elements, the byte bound, oldest first, with the pool, and every reference given back. */
class HexCacheTest {
    /** From Osaka on, an entry with cell proofs is cached as its {@code BlobAndProofV2} element. */
    private static final ElementRenderer OSAKA = new ElementRenderer(Fork.OSAKA);
    /** A {@code BlobAndProofV2} element and its comma: 275,096 + 1 bytes. */
    private static final int V2_BYTES = 275_097;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anEntryIsItsElementAsJacksonWritesItThenAComma() throws Exception {
        BlobEntry entry = entry(1, true, true);
        HexCache cache = new HexCache(1 << 20, OSAKA);
        try {
            cache.entered(entry);
            assertEquals(V2_BYTES, cache.bytes());
            EncodedEntry[] found = cache.retainAll(List.of(entry));
            try {
                HexFormat hex = HexFormat.of();
                List<String> proofs = new ArrayList<>();
                for (int i = 0; i < BlobSizes.CELLS_PER_EXT_BLOB; i++) {
                    proofs.add("0x" + hex.formatHex(entry.cellProofs(), 48 * i, 48 * (i + 1)));
                }
                Map<String, Object> element = new LinkedHashMap<>();
                element.put("blob", "0x" + hex.formatHex(entry.blob()));
                element.put("proofs", proofs);
                assertEquals(JSON.writeValueAsString(element) + ",", ascii(found[0].element()));
                assertEquals(hex.formatHex(entry.blob()), ascii(found[0].blob()));
                assertTrue(found[0].isA(BlobAndProofV2.SHAPE));
                assertEquals(2, found[0].element().refCnt(), "the cache's and the lookup's");
            } finally {
                HexCache.releaseAll(found);
            }
            assertEquals(1, found[0].element().refCnt());
        } finally {
            cache.close();
        }
    }

    @Test
    void beforeOsakaAnEntryIsItsBlobAndProofV1ElementAndWithoutABlobProofNothing() throws Exception {
        BlobEntry entry = entry(1, true, true);
        HexCache cache = new HexCache(1 << 20, new ElementRenderer(Fork.PRAGUE));
        try {
            cache.entered(entry);
            cache.entered(entry(2, false, true));
            assertEquals(1, cache.size(), "the entry without a blob proof is not cached");
            EncodedEntry[] found = cache.retainAll(List.of(entry));
            try {
                HexFormat hex = HexFormat.of();
                Map<String, Object> element = new LinkedHashMap<>();
                element.put("blob", "0x" + hex.formatHex(entry.blob()));
                element.put("proof", "0x" + hex.formatHex(entry.blobProof()));
                assertEquals(JSON.writeValueAsString(element) + ",", ascii(found[0].element()));
                assertEquals(hex.formatHex(entry.blob()), ascii(found[0].blob()));
                assertTrue(found[0].isA(BlobAndProofV1.SHAPE));
            } finally {
                HexCache.releaseAll(found);
            }
        } finally {
            cache.close();
        }
        HexCache osaka = new HexCache(1 << 20, OSAKA);
        osaka.entered(entry(3, true, false));
        assertEquals(0, osaka.size(), "from Osaka on, an entry without cell proofs is not cached");
        osaka.close();
    }

    @Test
    void aReplacedEntryKeepsItsDigitsUnderItsSuccessor() {
        BlobEntry stale = entry(1, false, true);
        BlobEntry complete = stale.withExtensionCells(new byte[BlobSizes.EXTENSION_CELLS_SIZE]);
        HexCache cache = new HexCache(1 << 20, OSAKA);
        try {
            cache.entered(stale);
            EncodedEntry[] before = cache.retainAll(List.of(stale));
            HexCache.releaseAll(before);
            cache.replaced(stale, complete);
            assertEquals(V2_BYTES, cache.bytes());
            assertEquals(1, cache.size());
            assertNull(cache.retainAll(List.of(stale)), "the stale entry is no longer pooled");
            EncodedEntry[] after = cache.retainAll(List.of(complete));
            try {
                assertSame(before[0], after[0], "the same element, not rendered again");
            } finally {
                HexCache.releaseAll(after);
            }
            cache.left(complete);
            assertEquals(0, cache.bytes());
            assertEquals(0, before[0].blob().refCnt());
        } finally {
            cache.close();
        }
    }

    @Test
    void theOldestIsEvictedFirstWithinTheBoundAndALookupKeepsItsDigitsAlive() {
        BlobEntry a = entry(1, false, true);
        BlobEntry b = entry(2, false, true);
        BlobEntry c = entry(3, false, true);
        HexCache cache = new HexCache(2L * V2_BYTES + 1000, OSAKA);
        try {
            cache.entered(a);
            cache.entered(b);
            assertEquals(2L * V2_BYTES, cache.bytes());
            EncodedEntry[] inFlight = cache.retainAll(List.of(a));
            cache.entered(c);
            assertEquals(2, cache.size());
            assertEquals(2L * V2_BYTES, cache.bytes());
            assertNull(cache.retainAll(List.of(a)), "a, the oldest, evicted");
            assertEquals(1, inFlight[0].blob().refCnt(), "the response's reference only");
            assertEquals(Hex.encodeToString(a.blob(), false), ascii(inFlight[0].blob()), "still readable");
            HexCache.releaseAll(inFlight);
            assertEquals(0, inFlight[0].blob().refCnt());
            EncodedEntry[] rest = cache.retainAll(List.of(b, c));
            assertEquals(2, rest.length);
            HexCache.releaseAll(rest);
        } finally {
            cache.close();
        }
    }

    @Test
    void aLookupIsAllOrNothing() {
        BlobEntry a = entry(1, false, true);
        BlobEntry b = entry(2, false, true);
        HexCache cache = new HexCache(1 << 20, OSAKA);
        try {
            cache.entered(a);
            EncodedEntry[] one = cache.retainAll(Arrays.asList(a, null));
            assertEquals(2, one[0].blob().refCnt());
            assertNull(one[1]);
            HexCache.releaseAll(one);
            assertNull(cache.retainAll(Arrays.asList(a, null, b)), "b not cached");
            EncodedEntry[] leaked = cache.retainAll(List.of(copy(a)));
            HexCache.releaseAll(leaked);
            assertNull(leaked, "another entry of a's hash and bytes is not the cached entry");
            EncodedEntry[] again = cache.retainAll(List.of(a));
            assertEquals(2, again[0].blob().refCnt(), "the refused lookups retained nothing");
            HexCache.releaseAll(again);
        } finally {
            cache.close();
        }
    }

    @Test
    void anEntryLargerThanTheBoundIsNotCachedAndAnotherInstanceDoesNotEvict() {
        HexCache tiny = new HexCache(V2_BYTES - 1, OSAKA);
        tiny.entered(entry(1, false, true));
        assertEquals(0, tiny.size());
        tiny.close();

        BlobEntry a = entry(1, false, true);
        HexCache cache = new HexCache(1 << 20, OSAKA);
        cache.entered(a);
        cache.left(copy(a));
        assertEquals(1, cache.size(), "not the cached instance");
        EncodedEntry[] held = cache.retainAll(List.of(a));
        cache.left(a);
        assertEquals(0, cache.size());
        assertEquals(0, cache.bytes());
        assertEquals(1, held[0].blob().refCnt());
        HexCache.releaseAll(held);
        cache.close();
    }

    @Test
    void itFollowsThePoolInAndOutAndEncodesTheStoreAsItLoads(@TempDir Path dataDir) throws Exception {
        BlobEntry a = entry(1, true, true);
        BlobEntry b = entry(2, true, true);
        BlobEntry c = entry(3, true, true);
        HexCache cache = new HexCache(16L << 20, OSAKA);
        try {
            DurableBlobPool pool = DurableBlobPool.open(dataDir, 2, ServerMetrics.NONE, cache);
            pool.add(PoolItem.generated(a));
            pool.add(PoolItem.generated(b));
            EncodedEntry[] held = cache.retainAll(List.of(a));
            pool.add(PoolItem.generated(c)); // evicts a from the pool, so from the cache
            assertEquals(2, cache.size());
            assertEquals(2L * V2_BYTES, cache.bytes());
            assertNull(cache.retainAll(List.of(a)));
            assertEquals(1, held[0].blob().refCnt(), "released by the cache, alive for the lookup");
            HexCache.releaseAll(held);
            EncodedEntry[] rest = cache.retainAll(pooled(pool));
            assertEquals(
                    List.of(Hex.encodeToString(b.blob(), false), Hex.encodeToString(c.blob(), false)),
                    Arrays.stream(rest).map(encoded -> ascii(encoded.blob())).toList(),
                    "b and c cached");
            HexCache.releaseAll(rest);
        } finally {
            cache.close();
        }
        HexCache reloaded = new HexCache(16L << 20, OSAKA);
        try {
            DurableBlobPool pool = DurableBlobPool.open(dataDir, 2, ServerMetrics.NONE, reloaded);
            assertEquals(2, reloaded.size(), "the stored b and c, encoded as they loaded");
            EncodedEntry[] both = reloaded.retainAll(pooled(pool));
            assertEquals(2, both.length);
            assertArrayEquals(pool.get(c.versionedHash()).blob(), c.blob());
            HexCache.releaseAll(both);
        } finally {
            reloaded.close();
        }
    }

    /** The same bytes in other arrays: an entry the pool did not enter. */
    private static BlobEntry copy(BlobEntry entry) {
        return new BlobEntry(
                entry.blob().clone(),
                entry.commitment().clone(),
                entry.blobProof() != null ? entry.blobProof().clone() : null,
                entry.cellProofs().clone());
    }

    private static List<BlobEntry> pooled(DurableBlobPool pool) {
        return pool.hashes().stream().map(pool::get).toList();
    }

    private static String ascii(ByteBuf digits) {
        return digits.toString(StandardCharsets.US_ASCII);
    }

    /** An entry of random bytes (the cache checks no KZG): seed {@code seed}. */
    static BlobEntry entry(int seed, boolean blobProof, boolean cellProofs) {
        Random random = new Random(seed);
        byte[] blob = new byte[BlobSizes.BLOB_SIZE];
        byte[] commitment = new byte[BlobSizes.COMMITMENT_SIZE];
        byte[] proof = new byte[BlobSizes.PROOF_SIZE];
        byte[] cells = new byte[BlobSizes.CELL_PROOFS_SIZE];
        random.nextBytes(blob);
        random.nextBytes(commitment);
        random.nextBytes(proof);
        random.nextBytes(cells);
        return new BlobEntry(blob, commitment, blobProof ? proof : null, cellProofs ? cells : null);
    }
}
