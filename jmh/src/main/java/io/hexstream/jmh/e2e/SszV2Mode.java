package io.hexstream.jmh.e2e;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The end-to-end benchmark's SSZ V2 mode: {@code POST /engine/v2/blobs} of a {@code GetBlobsRequest}
 * (EIP-8178 draft), answered by the product as {@code GetBlobsV2Response}: 4 + 137,224 bytes a blob
 * against JSON's 275,096. Its bytes differ from the JSON servers', so it is checked on its own.
 */
final class SszV2Mode {
    static final String PATH = "/engine/v2/blobs";
    private static final int BLOB = 131_072;
    private static final int ELEMENT = BLOB + 4 + 128 * 48;

    private SszV2Mode() {}

    /** The request: offset 4, then the hashes. */
    static byte[] request(String token, List<VersionedHash> hashes, boolean close) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(4 + 32 * hashes.size());
        body.writeBytes(new byte[] {4, 0, 0, 0});
        for (VersionedHash hash : hashes) {
            body.writeBytes(hash.toBytes());
        }
        return LoopbackClient.request(token, PATH, "application/octet-stream", body.toByteArray(), close);
    }

    /** Untimed: one answer for {@code hashes}, every offset, blob and cell proof checked against the pool on disk. */
    static void verify(ServerJvm server, JwtAuthenticator tokens, List<VersionedHash> hashes, Path dataDir) throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dataDir, EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE);
        try (LoopbackClient client = new LoopbackClient(server.address(), false)) {
            byte[] body = client.fetch(request(tokens.token(), hashes, false));
            ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            int n = hashes.size();
            check(body.length == 4 + n * (4 + ELEMENT) && in.getInt(0) == 4, "length " + body.length);
            for (int i = 0; i < n; i++) {
                int at = 4 + in.getInt(4 + 4 * i);
                check(at == 4 + 4 * n + i * ELEMENT && in.getInt(at + BLOB) == BLOB + 4, "offsets of blob " + i);
                BlobEntry entry = pool.get(hashes.get(i));
                check(Arrays.equals(entry.blob(), Arrays.copyOfRange(body, at, at + BLOB))
                        && Arrays.equals(entry.cellProofs(), Arrays.copyOfRange(body, at + BLOB + 4, at + ELEMENT)),
                        "blob " + i + " is not what the pool holds");
            }
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("SSZ getBlobsV2: " + what);
        }
    }
}
