package io.hexstream.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.CellIndices;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The length the response cap counts is the length of the body written, for every reply shape. */
class ResponseWriterTest {
    private static final ResponseWriter WRITER = new ResponseWriter();
    private static final BlobEntry ENTRY = new BlobEntry(new byte[BlobSizes.BLOB_SIZE], new byte[BlobSizes.COMMITMENT_SIZE],
            new byte[BlobSizes.PROOF_SIZE], new byte[BlobSizes.CELL_PROOFS_SIZE]);
    private static final BlobEntry WITH_CELLS = ENTRY.withExtensionCells(new byte[BlobSizes.EXTENSION_CELLS_SIZE]);
    private static final BlobEntry BLOB_PROOF_ONLY = new BlobEntry(new byte[BlobSizes.BLOB_SIZE],
            new byte[BlobSizes.COMMITMENT_SIZE], new byte[BlobSizes.PROOF_SIZE], null);
    /** Cells 0 and 64: bit 0 of byte 0 and of byte 8. */
    private static final CellIndices CELLS_0_AND_64 = CellIndices.decode("0x01000000000000000100000000000000");
    private static final CellIndices NO_CELLS = CellIndices.decode("0x00000000000000000000000000000000");

    @Test
    void aCountedLengthIsTheBuiltBodysLength() {
        byte[] id = "\"req-7\"".getBytes(StandardCharsets.US_ASCII);
        List<RpcReply> replies = List.of(
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(null)),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(List.of())),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(Arrays.asList(ENTRY, null, ENTRY))),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV1(List.of())),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV1(Arrays.asList(null, ENTRY))),
                RpcReply.success(id, new RpcResult.BlobCellsAndProofsV1(List.of(WITH_CELLS), CELLS_0_AND_64)),
                RpcReply.success(id, new RpcResult.BlobCellsAndProofsV1(
                        Arrays.asList(null, ENTRY, BLOB_PROOF_ONLY, WITH_CELLS), CELLS_0_AND_64)),
                RpcReply.success(id, new RpcResult.BlobCellsAndProofsV1(Arrays.asList(WITH_CELLS, null), NO_CELLS)),
                RpcReply.failure(id, RpcError.SERVER_ERROR, "server busy"));
        // {"jsonrpc":"2.0","id":"req-7","result":…} is 40 bytes besides the result
        // a V4 object of cells 0 and 64: {"blob_cells":["0x…","0x…"],"proofs":["0x…","0x…"]}, 2 × 4,100 and 2 × 100
        // bytes of values; of no cell: {"blob_cells":[],"proofs":[]}, 29 bytes
        long[] expected = {40 + 4, 40 + 2, 40 + 2 + 2 * 275_096 + 4 + 2, 40 + 2, 40 + 2 + 4 + 262_266 + 1,
            40 + 2 + 8_431, -1, 40 + 2 + 29 + 1 + 4, -1};
        for (int i = 0; i < replies.size(); i++) {
            JsonBody body = WRITER.body(new Replies(List.of(replies.get(i)), false));
            try {
                assertEquals(body.length(), WRITER.length(replies.get(i)), "reply " + i);
                if (expected[i] >= 0) {
                    assertEquals(expected[i], body.length(), "reply " + i);
                }
            } finally {
                body.release();
            }
        }
    }
}
