package io.hexstream.jmh;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Besu's way to a getBlobsV2 response: every blob and cell proof made a {@code String} by the
 * {@code char[]} method ({@link BesuHex}), gathered in POJOs for Jackson's {@code ObjectMapper}.
 * A baseline for the benchmarks only.
 */
public final class JacksonStrings {
    private JacksonStrings() {}

    /** {@code BlobAndProofV2}. */
    public record BlobAndProofV2(String blob, List<String> proofs) {}

    /** A JSON-RPC success response; {@code id} is the request's raw JSON token. */
    public record Response(String jsonrpc, @JsonRawValue String id, Object result) {}

    /** One blob and its cell proofs ({@code count} × {@code size} bytes back to back) as Strings. */
    public static BlobAndProofV2 blobAndProof(byte[] blob, byte[] cellProofs, int size, int count) {
        List<String> proofs = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            proofs.add(BesuHex.toFastHex(Arrays.copyOfRange(cellProofs, p * size, (p + 1) * size), true));
        }
        return new BlobAndProofV2(BesuHex.toFastHex(blob, true), proofs);
    }
}
