package example;

import io.hexstream.client.GetBlobsResponses;
import io.hexstream.client.JwtSigner;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * {@code engine_getBlobsV2} over OkHttp, its reply read as client/README.md's "In Teku" diff reads it: the body's
 * {@code byteStream()} straight into {@link GetBlobsResponses#readV2}, no tree, no {@code String} per blob.
 */
public final class OkHttpGetBlobs {
    private static final MediaType JSON = MediaType.get("application/json");

    private final OkHttpClient http;
    private final HttpUrl endpoint;
    private final JwtSigner jwt;

    /**
     * @param endpoint the Engine API's URL, {@code http://127.0.0.1:8551}
     * @param jwtSecret the 32-byte JWT secret the server shares
     */
    public OkHttpGetBlobs(OkHttpClient http, String endpoint, byte[] jwtSecret) {
        this.http = http;
        this.endpoint = HttpUrl.get(endpoint);
        this.jwt = new JwtSigner(jwtSecret);
    }

    /**
     * The result for {@code versionedHashes} ({@code 0x}-prefixed hex), in their order; {@code null} for a {@code null}
     * result (the server lacks one of them).
     *
     * @throws IOException an HTTP status other than 200, a JSON-RPC error ({@code RpcErrorException}), a body that is
     *     not a getBlobsV2 response for these hashes ({@code GetBlobsResponseException}), or the connection's fault
     */
    public List<BlobAndProofV2> getBlobsV2(List<String> versionedHashes) throws IOException {
        String params =
                versionedHashes.stream().map(hash -> '"' + hash + '"').collect(Collectors.joining(",", "[[", "]]"));
        Request request = new Request.Builder()
                .url(endpoint)
                .header("Authorization", "Bearer " + jwt.get())
                .post(RequestBody.create(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"engine_getBlobsV2\",\"params\":" + params + "}",
                        JSON))
                .build();
        try (Response response = http.newCall(request).execute()) {
            ResponseBody body = response.body();
            if (!response.isSuccessful() || body == null) {
                throw new IOException(
                        "HTTP " + response.code() + ": " + (body == null ? response.message() : body.string()));
            }
            return GetBlobsResponses.readV2(
                    body.byteStream(),
                    versionedHashes.size(),
                    (blob, proofs) -> new BlobAndProofV2(
                            Bytes.wrap(blob), proofs.stream().map(Bytes48::wrap).toList()));
        }
    }
}
