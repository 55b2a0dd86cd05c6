package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.jmh.GetBlobsV4ResponseBenchmark;
import io.hexstream.server.blob.BlobEntry;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What one request of the end-to-end benchmark asks for, besides its blob count: {@code v2} ({@code engine_getBlobsV2},
 * whole blobs and 128 cell proofs each), {@code v4x8} ({@code engine_getBlobsV4} of a typical custody set, 8 cells a
 * blob, {@link GetBlobsV4ResponseBenchmark#CUSTODY_CELLS}) or {@code v4x128} (V4 of every cell: twice V2's bytes).
 *
 * @param name the shape's name in {@code --shapes} and in the tables
 * @param cells the cells V4 asks for of each blob, ascending; {@code null} for V2
 */
record RequestShape(String name, int[] cells) {
    static final RequestShape V2 = new RequestShape("v2", null);

    /** {@code v2}, {@code v4x8} or {@code v4x128}. */
    static RequestShape named(String name) {
        return switch (name) {
            case "v2" -> V2;
            case "v4x8" -> new RequestShape(name, GetBlobsV4ResponseBenchmark.CUSTODY_CELLS);
            case "v4x128" ->
                new RequestShape(
                        name, IntStream.range(0, BlobSizes.CELLS_PER_EXT_BLOB).toArray());
            default -> throw new IllegalArgumentException("unknown shape " + name + " (v2, v4x8, v4x128)");
        };
    }

    boolean v4() {
        return cells != null;
    }

    /** The request's JSON for {@code hashes}. */
    String body(List<VersionedHash> hashes) {
        StringBuilder json = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"engine_getBlobs")
                .append(v4() ? "V4" : "V2")
                .append("\",\"params\":[[");
        for (int i = 0; i < hashes.size(); i++) {
            json.append(i == 0 ? "\"" : ",\"").append(hashes.get(i)).append('"');
        }
        json.append(']');
        if (v4()) {
            byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
            for (int cell : cells) {
                bits[cell / 8] |= (byte) (1 << (cell % 8)); // indices_bitarray: SSZ Bitvector[128]
            }
            json.append(",\"").append(Hex.encodeToString(bits, true)).append('"');
        }
        return json.append("]}").toString();
    }

    /**
     * Whether {@code result} (a parsed V4 result) holds, for {@code entries} in order, every asked-for cell: cells 0 to
     * 63 equal to the blob's bytes, every proof the entry's; {@code false} if a cell from 64 on is {@code null} (the
     * server has not computed its extension cells, yet or at all).
     *
     * @throws IllegalStateException if a cell or proof differs from the pool's
     */
    boolean servesEveryCell(JsonNode result, List<BlobEntry> entries) {
        for (int i = 0; i < entries.size(); i++) {
            BlobEntry entry = entries.get(i);
            JsonNode blobCells = result.get(i).get("blob_cells");
            JsonNode proofs = result.get(i).get("proofs");
            for (int k = 0; k < cells.length; k++) {
                int cell = cells[k];
                if (blobCells.get(k).isNull()) {
                    return false;
                }
                boolean proofMatches = Arrays.equals(
                        HexDecoder.decode(proofs.get(k).asText()),
                        Arrays.copyOfRange(
                                entry.cellProofs(), cell * BlobSizes.PROOF_SIZE, (cell + 1) * BlobSizes.PROOF_SIZE));
                boolean cellMatches = cell >= BlobSizes.CELLS_IN_BLOB
                        || Arrays.equals(
                                HexDecoder.decode(blobCells.get(k).asText()),
                                Arrays.copyOfRange(
                                        entry.blob(), cell * BlobSizes.CELL_SIZE, (cell + 1) * BlobSizes.CELL_SIZE));
                if (!proofMatches || !cellMatches) {
                    throw new IllegalStateException("cell " + cell + " of blob " + i + " is not what the pool holds");
                }
            }
        }
        return true;
    }
}
