package io.hexstream.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The length the response cap counts is the length of the body written, for every reply shape. */
class ResponseWriterTest {
    private static final ResponseWriter WRITER = new ResponseWriter();
    private static final BlobEntry ENTRY = new BlobEntry(new byte[BlobSizes.BLOB_SIZE], new byte[BlobSizes.COMMITMENT_SIZE],
            new byte[BlobSizes.PROOF_SIZE], new byte[BlobSizes.CELL_PROOFS_SIZE]);

    @Test
    void aCountedLengthIsTheBuiltBodysLength() {
        byte[] id = "\"req-7\"".getBytes(StandardCharsets.US_ASCII);
        List<RpcReply> replies = List.of(
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(null)),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(List.of())),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV2(Arrays.asList(ENTRY, null, ENTRY))),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV1(List.of())),
                RpcReply.success(id, new RpcResult.BlobsAndProofsV1(Arrays.asList(null, ENTRY))),
                RpcReply.failure(id, RpcError.SERVER_ERROR, "server busy"));
        // {"jsonrpc":"2.0","id":"req-7","result":…} is 40 bytes besides the result
        long[] expected = {40 + 4, 40 + 2, 40 + 2 + 2 * 275_096 + 4 + 2, 40 + 2, 40 + 2 + 4 + 262_266 + 1, -1};
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
