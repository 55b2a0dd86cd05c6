package io.hexstream.client;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.netty.buffer.ByteBufUtil;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link GetBlobsClient} against a hand-written HTTP server: a result written as the JSON and HTTP specs allow, not as
 * any one server writes it (pretty-printed by Jackson, members in another order, a member it does not know, chunked in
 * pieces of 1 to 64 bytes), gives the bytes it was written from, each request signed with a token java-jwt verifies; a
 * JSON-RPC error fails the call with its code and message; an SSZ route's problem document (RFC 7807, written by
 * Jackson) is one line of its status, title or type, and detail.
 */
class GetBlobsClientTest {
    private static final byte[] SECRET = secret();

    @Test
    void v2InAnotherFormInSmallChunksGivesItsBytes() throws Exception {
        Random random = new Random(32);
        List<Blob> blobs = List.of(Responses.blob(random, BlobSizes.CELLS_PER_EXT_BLOB), Responses.blob(random, 128));
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("id", 1);
        response.put("note", Map.of("d\u00e9j\u00e0", List.of(1, "\"vu\"", Map.of())));
        response.put("result", Responses.blobEntries(blobs, false));
        response.put("jsonrpc", "2.0");
        byte[] body = Responses.pretty(response);
        try (CannedHttpServer server = new CannedHttpServer(n -> CannedHttpServer.chunked(body, 64, n));
                GetBlobsClient client = client(server, false)) {
            Entries got = new Entries();

            BlobsOutcome outcome = client.call(call(2), got).get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(body.length, outcome.bodyBytes());
            for (int i = 0; i < blobs.size(); i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(concat(blobs.get(i).proofs()), got.proofs.get(i));
            }
            String token = server.heads()
                    .get(0)
                    .lines()
                    .filter(line -> line.startsWith("authorization: Bearer "))
                    .findFirst()
                    .orElseThrow()
                    .substring(22);
            JWT.require(Algorithm.HMAC256(SECRET)).build().verify(token);
        }
    }

    @Test
    void jsonRpcErrorFailsTheCallWithItsCodeAndMessage() throws Exception {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", -38004);
        error.put("message", "Too large request");
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("error", error);
        response.put("id", 1);
        response.put("jsonrpc", "2.0");
        byte[] body = Responses.write(response);
        try (CannedHttpServer server =
                        new CannedHttpServer(n -> CannedHttpServer.contentLength(200, "application/json", body));
                GetBlobsClient client = client(server, false)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> client.call(call(1), new Entries()).get(30, TimeUnit.SECONDS));

            RpcErrorException rpc = assertInstanceOf(RpcErrorException.class, e.getCause());
            assertEquals(-38004, rpc.code());
            assertEquals("Too large request", rpc.rpcMessage());
        }
    }

    @Test
    void sszProblemIsOneLineOfItsStatusTitleOrTypeAndDetail() throws Exception {
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("type", "https://example.org/problems/request-too-large");
        typed.put("status", 413);
        typed.put("extra", List.of(Map.of("title", "not this one"), List.of()));
        typed.put("detail", "129 versioned hashes,\nat most 128");
        Map<String, Object> titled = new LinkedHashMap<>();
        titled.put("detail", "no such route");
        titled.put("title", "Not Found Here");
        titled.put("type", "about:blank");
        List<byte[]> responses = List.of(
                CannedHttpServer.contentLength(413, "application/problem+json", Responses.write(typed)),
                CannedHttpServer.contentLength(404, "application/problem+json", Responses.write(titled)),
                CannedHttpServer.contentLength(503, "text/plain", "{\"title\": cut".getBytes(US_ASCII)));
        try (CannedHttpServer server = new CannedHttpServer(responses::get);
                GetBlobsClient client = client(server, true)) {
            assertEquals("HTTP 413 request-too-large: 129 versioned hashes, at most 128", sszFault(client));
            assertEquals("HTTP 404 Not Found Here: no such route", sszFault(client));
            assertEquals("HTTP 503 Service Unavailable", sszFault(client));
        }
    }

    @Test
    void builderWithoutTokensIsRefused() {
        GetBlobsClient.Builder builder = GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:1"));

        IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);

        assertEquals("a GetBlobsClient needs its JWT secret or tokens", e.getMessage());
    }

    private static byte[] secret() {
        byte[] secret = new byte[JwtSigner.SECRET_SIZE];
        for (int i = 0; i < secret.length; i++) {
            secret[i] = (byte) (i * 7 + 1);
        }
        return secret;
    }

    private static String sszFault(GetBlobsClient client) throws Exception {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> client.call(call(1), new Entries()).get(30, TimeUnit.SECONDS));
        return assertInstanceOf(BadResponseException.class, e.getCause()).getMessage();
    }

    private static GetBlobsClient client(CannedHttpServer server, boolean ssz) {
        return GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:" + server.port()))
                .jwtSecret(SECRET)
                .ssz(ssz)
                .build();
    }

    private static GetBlobsCall call(int hashes) {
        Random random = new Random(hashes);
        List<VersionedHash> asked = new ArrayList<>();
        for (int i = 0; i < hashes; i++) {
            asked.add(VersionedHash.wrap(Responses.bytes(random, BlobSizes.VERSIONED_HASH_SIZE)));
        }
        return new GetBlobsCall(BlobsMethod.V2, asked, null);
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /** Copies each entry's bytes and releases its buffers; read once the call's future has completed. */
    private static final class Entries implements BlobsListener {
        final List<byte[]> blobs = new ArrayList<>();
        final List<byte[]> proofs = new ArrayList<>();

        @Override
        public void blob(int index, BlobAndProofs entry) {
            try {
                blobs.add(ByteBufUtil.getBytes(entry.blob()));
                proofs.add(ByteBufUtil.getBytes(entry.proofs()));
            } finally {
                entry.release();
            }
        }
    }
}
