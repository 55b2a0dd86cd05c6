package io.hexstream.jmh.e2e;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The end-to-end benchmark's binary SSZ modes (execution-apis #793, {@code refactor-ssz.md}): for shape {@code v2},
 * {@code POST /engine/v1/blobs/v2} of a {@code BlobsV2Request}, answered as {@code BlobsV2Response} (4 + 137,229 bytes
 * a blob against JSON's 275,096); for a V4 shape, {@code POST /engine/v1/blobs/v4} of a {@code BlobsV4Request},
 * answered as {@code BlobsV4Response} (128 slots a list, the asked-for cells in theirs). Their bytes differ from the
 * JSON servers', so they are checked on their own.
 */
final class SszMode {
    private static final int BLOB = BlobSizes.BLOB_SIZE;
    private static final int PROOFS = BlobSizes.CELL_PROOFS_SIZE;
    /** {@code BlobV2Entry}: available, offset, blob, offset, 128 proofs. */
    private static final int V2_ENTRY = 1 + 4 + BLOB + 4 + PROOFS;

    private static final int SLOTS = BlobSizes.CELLS_PER_EXT_BLOB;

    private SszMode() {}

    /** The route of {@code shape}. */
    static String path(RequestShape shape) {
        return shape.v4() ? "/engine/v1/blobs/v4" : "/engine/v1/blobs/v2";
    }

    /** The request: the offset of the hashes (4; V4: 20, after {@code indices_bitarray}), then the hashes. */
    static byte[] request(String token, List<VersionedHash> hashes, RequestShape shape, boolean close) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(20 + 32 * hashes.size());
        body.writeBytes(new byte[] {(byte) (shape.v4() ? 20 : 4), 0, 0, 0});
        if (shape.v4()) {
            byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
            for (int cell : shape.cells()) {
                bits[cell / 8] |= (byte) (1 << (cell % 8)); // Bitvector[128]
            }
            body.writeBytes(bits);
        }
        for (VersionedHash hash : hashes) {
            body.writeBytes(hash.toBytes());
        }
        return LoopbackClient.request(token, path(shape), "application/octet-stream", body.toByteArray(), close);
    }

    /**
     * Untimed: one answer for {@code hashes}, every offset, blob, cell and cell proof checked against the pool on disk;
     * for V4, waiting up to {@value EndToEndBenchmark#CELLS_WAIT_SECONDS} s for the server to have computed its
     * extension cells.
     */
    static void verify(
            ServerJvm server, JwtAuthenticator tokens, List<VersionedHash> hashes, Path dataDir, RequestShape shape)
            throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dataDir, EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE);
        long deadline = System.nanoTime() + EndToEndBenchmark.CELLS_WAIT_SECONDS * 1_000_000_000L;
        try (LoopbackClient client = new LoopbackClient(server.address(), false)) {
            while (true) {
                byte[] body = client.fetch(request(tokens.token(), hashes, shape, false));
                if (!shape.v4()) {
                    verifyV2(body, hashes, pool);
                    return;
                }
                if (verifyV4(body, hashes, pool, shape.cells())) {
                    return;
                }
                check(
                        System.nanoTime() < deadline,
                        "cells from 64 on missing after " + EndToEndBenchmark.CELLS_WAIT_SECONDS + " s");
                Thread.sleep(1000);
            }
        }
    }

    private static void verifyV2(byte[] body, List<VersionedHash> hashes, DurableBlobPool pool) {
        ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        int n = hashes.size();
        check(body.length == 4 + n * (4 + V2_ENTRY) && in.getInt(0) == 4, "length " + body.length);
        for (int i = 0; i < n; i++) {
            int at = 4 + in.getInt(4 + 4 * i);
            check(
                    at == 4 + 4 * n + i * V2_ENTRY
                            && body[at] == 1
                            && in.getInt(at + 1) == 5
                            && in.getInt(at + 5 + BLOB) == BLOB + 4,
                    "offsets of blob " + i);
            BlobEntry entry = pool.get(hashes.get(i));
            check(
                    Arrays.equals(entry.blob(), Arrays.copyOfRange(body, at + 5, at + 5 + BLOB))
                            && Arrays.equals(
                                    entry.cellProofs(), Arrays.copyOfRange(body, at + 9 + BLOB, at + V2_ENTRY)),
                    "blob " + i + " is not what the pool holds");
        }
    }

    /**
     * Whether every asked-for cell is there (cells 0 to 63 and every proof checked); {@code false} if one from 64 on is
     * not.
     */
    private static boolean verifyV4(byte[] body, List<VersionedHash> hashes, DurableBlobPool pool, int[] cells) {
        ByteBuffer in = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        int n = hashes.size();
        check(in.getInt(0) == 4 && (n == 0 || in.getInt(4) == 4 * n), "list offsets");
        for (int i = 0; i < n; i++) {
            int at = 4 + in.getInt(4 + 4 * i);
            check(body[at] == 1 && in.getInt(at + 1) == 5 && in.getInt(at + 5) == 8, "entry " + i);
            int cellList = at + 5 + 8;
            int proofList = at + 5 + in.getInt(at + 9);
            BlobEntry entry = pool.get(hashes.get(i));
            for (int cell : cells) {
                int cellFrom = cellList + in.getInt(cellList + 4 * cell);
                int cellTo = cell + 1 < SLOTS ? cellList + in.getInt(cellList + 4 * (cell + 1)) : proofList;
                if (cellTo == cellFrom) {
                    return false;
                }
                int proofFrom = proofList + in.getInt(proofList + 4 * cell);
                check(
                        cellTo - cellFrom == BlobSizes.CELL_SIZE
                                && Arrays.equals(
                                        Arrays.copyOfRange(body, proofFrom, proofFrom + 48),
                                        Arrays.copyOfRange(entry.cellProofs(), cell * 48, cell * 48 + 48))
                                && (cell >= BlobSizes.CELLS_IN_BLOB
                                        || Arrays.equals(
                                                Arrays.copyOfRange(body, cellFrom, cellTo),
                                                Arrays.copyOfRange(
                                                        entry.blob(),
                                                        cell * BlobSizes.CELL_SIZE,
                                                        (cell + 1) * BlobSizes.CELL_SIZE))),
                        "cell " + cell + " of blob " + i + " is not what the pool holds");
            }
        }
        return true;
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("SSZ getBlobs: " + what);
        }
    }
}
