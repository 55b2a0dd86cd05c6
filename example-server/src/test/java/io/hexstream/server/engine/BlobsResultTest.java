package io.hexstream.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcError;
import io.hexstream.server.rpc.RpcReply;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The length the response cap counts is the body's, for every getBlobs shape, and is what the spec's shapes take; and
 * what a result takes from the hex cache.
 */
class BlobsResultTest {
    private static final ResponseWriter WRITER = new ResponseWriter();
    private static final BlobEntry ENTRY = new BlobEntry(
            new byte[BlobSizes.BLOB_SIZE],
            new byte[BlobSizes.COMMITMENT_SIZE],
            new byte[BlobSizes.PROOF_SIZE],
            new byte[BlobSizes.CELL_PROOFS_SIZE]);
    private static final BlobEntry WITH_CELLS = ENTRY.withExtensionCells(new byte[BlobSizes.EXTENSION_CELLS_SIZE]);
    private static final BlobEntry BLOB_PROOF_ONLY = new BlobEntry(
            new byte[BlobSizes.BLOB_SIZE], new byte[BlobSizes.COMMITMENT_SIZE], new byte[BlobSizes.PROOF_SIZE], null);
    /** Cells 0 and 64: bit 0 of byte 0 and of byte 8. */
    private static final CellIndices CELLS_0_AND_64 = CellIndices.decode("0x01000000000000000100000000000000");

    private static final CellIndices NO_CELLS = CellIndices.decode("0x00000000000000000000000000000000");

    @Test
    void aCountedLengthIsTheBuiltBodysLength() {
        byte[] id = "\"req-7\"".getBytes(StandardCharsets.US_ASCII);
        List<RpcReply> replies = List.of(
                RpcReply.success(id, v2(null)),
                RpcReply.success(id, v2(List.of())),
                RpcReply.success(id, v2(Arrays.asList(ENTRY, null, ENTRY))),
                RpcReply.success(id, v1(List.of())),
                RpcReply.success(id, v1(Arrays.asList(null, ENTRY))),
                RpcReply.success(id, v4(List.of(WITH_CELLS), CELLS_0_AND_64, null)),
                RpcReply.success(id, v4(Arrays.asList(null, ENTRY, BLOB_PROOF_ONLY, WITH_CELLS), CELLS_0_AND_64, null)),
                RpcReply.success(id, v4(Arrays.asList(WITH_CELLS, null), NO_CELLS, null)),
                RpcReply.failure(id, RpcError.SERVER_ERROR, "server busy"));
        // {"jsonrpc":"2.0","id":"req-7","result":…} is 40 bytes besides the result
        // a V4 object of cells 0 and 64: {"blob_cells":["0x…","0x…"],"proofs":["0x…","0x…"]}, 2 × 4,100 and 2 × 100
        // bytes of values; of no cell: {"blob_cells":[],"proofs":[]}, 29 bytes
        long[] expected = {
            40 + 4,
            40 + 2,
            40 + 2 + 2 * 275_096 + 4 + 2,
            40 + 2,
            40 + 2 + 4 + 262_266 + 1,
            40 + 2 + 8_431,
            -1,
            40 + 2 + 29 + 1 + 4,
            -1
        };
        for (int i = 0; i < replies.size(); i++) {
            long counted = replies.get(i).length();
            String text = text(WRITER.body(new Replies(List.of(replies.get(i)), false)));
            assertEquals(text.length(), counted, "reply " + i);
            if (expected[i] >= 0) {
                assertEquals(expected[i], counted, "reply " + i);
            }
        }
    }

    /**
     * A V4 result from the cache takes cells 0 to 63 from the cached element's blob digits and encodes the extension
     * cells and the proofs: with the cached digits of cell 0 and the element's first proof digits altered, only cell 0
     * shows it, and without the cache nothing does.
     */
    @Test
    void aV4ResultFromTheCacheTakesItsBlobCellsFromTheCachedElement() {
        HexCache cache = new HexCache(1 << 20, new ElementRenderer(Fork.OSAKA));
        try {
            cache.entered(WITH_CELLS);
            EncodedEntry[] digits = cache.retainAll(List.of(WITH_CELLS));
            digits[0].blob().setByte(0, 'a').setByte(1, 'b');
            ByteBuf element = digits[0].element();
            int firstProof = element.readerIndex() + 11 + 262_144 + "\",\"proofs\":[\"0x".length();
            element.setByte(firstProof, 'c').setByte(firstProof + 1, 'd');
            HexCache.releaseAll(digits);
            byte[] id = "1".getBytes(StandardCharsets.US_ASCII);
            String zeros = "0".repeat(4094);
            String fromCache = text(WRITER.body(new Replies(
                    List.of(RpcReply.success(id, v4(List.of(WITH_CELLS), CELLS_0_AND_64, cache))), false)));
            assertEquals(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{\"blob_cells\":[\"0xab" + zeros + "\",\"0x00" + zeros
                            + "\"],\"proofs\":[\"0x" + "0".repeat(96) + "\",\"0x" + "0".repeat(96) + "\"]}]}",
                    fromCache);
            assertEquals(
                    fromCache.replace("0xab", "0x00"),
                    text(WRITER.body(new Replies(
                            List.of(RpcReply.success(id, v4(List.of(WITH_CELLS), CELLS_0_AND_64, null))), false))));
        } finally {
            cache.close();
        }
    }

    private static BlobsResult v1(List<BlobEntry> entries) {
        return new BlobsResult(entries, BlobAndProofV1.SHAPE, null, Tally.NONE);
    }

    private static BlobsResult v2(List<BlobEntry> entries) {
        return new BlobsResult(entries, BlobAndProofV2.SHAPE, null, Tally.NONE);
    }

    private static BlobsResult v4(List<BlobEntry> entries, CellIndices cells, HexCache cache) {
        return new BlobsResult(entries, new BlobCellsAndProofsV1(cells), cache, Tally.NONE);
    }

    /** The body's bytes as text; releases it. */
    private static String text(JsonBody body) {
        JsonBodyInput input = new JsonBodyInput(body);
        StringBuilder out = new StringBuilder();
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null; ) {
                out.append(chunk.toString(StandardCharsets.US_ASCII));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return out.toString();
    }
}
