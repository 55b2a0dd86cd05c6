package io.hexstream.jmh;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Besu's way to a getBlobsV2 response: every blob and cell proof made a {@code String} by the {@code char[]} method
 * ({@link BesuHex}), gathered in POJOs for Jackson, as
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/methods/engine/EngineGetBlobsV2.java} builds its
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/results/BlobAndProofV2.java} (String fields). A baseline for the benchmarks only.
 */
public final class JacksonStrings {
    private JacksonStrings() {}

    /** {@code BlobAndProofV2}. */
    public record BlobAndProofV2(String blob, List<String> proofs) {}

    /** A JSON-RPC success response; {@code id} is the request's raw JSON token. */
    public record Response(String jsonrpc, @JsonRawValue String id, Object result) {}

    /**
     * One blob and its cell proofs ({@code count} × {@code size} bytes back to back) as Strings, the proofs in a
     * parallel stream as {@code EngineGetBlobsV2.createBlobAndProofV2} makes them
     * ({@code getKzgProof().parallelStream()}, in the common fork-join pool); callers make the blobs in a parallel
     * stream too, as its {@code syncResponse} does.
     */
    public static BlobAndProofV2 blobAndProof(byte[] blob, byte[] cellProofs, int size, int count) {
        List<String> proofs = IntStream.range(0, count)
                .parallel()
                .mapToObj(p -> BesuHex.toFastHex(cellProofs, p * size, size, true))
                .toList();
        return new BlobAndProofV2(BesuHex.toFastHex(blob, true), proofs);
    }
}
