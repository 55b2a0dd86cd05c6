package io.hexstream.client;

import io.hexstream.codec.Hex;
import java.nio.charset.StandardCharsets;

/**
 * The JSON-RPC request body of a getBlobs call (execution-apis, the method's "Request"):
 * {@code {"jsonrpc":"2.0","id":ID,"method":"engine_getBlobsV2","params":[["0x…",…]]}}, and for V4 its
 * {@code indices_bitarray} as the second param. ASCII; at most about 70 bytes a hash.
 */
final class JsonGetBlobs {
    private JsonGetBlobs() {}

    /** The body of {@code call} with the JSON-RPC id {@code id}. */
    static byte[] requestBody(GetBlobsCall call, long id) {
        StringBuilder body = new StringBuilder(96 + 70 * call.hashes().size());
        body.append("{\"jsonrpc\":\"2.0\",\"id\":")
                .append(id)
                .append(",\"method\":\"")
                .append(call.method().methodName())
                .append("\",\"params\":[[");
        for (int i = 0; i < call.hashes().size(); i++) {
            VersionedHash hash = call.hashes().get(i);
            body.append(i == 0 ? "\"" : ",\"").append(hash).append('"');
        }
        body.append(']');
        if (call.cells() != null) {
            body.append(",\"").append(Hex.encodeToString(call.cells(), true)).append('"');
        }
        return body.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
    }
}
