package io.hexstream.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.Hex;
import io.hexstream.server.auth.JwtAuthenticator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

/**
 * A JSON-RPC client of one endpoint over loopback HTTP: a fresh JWT on every request (none for an unauthenticated
 * port), JSON text in, the reply's bytes or parsed JSON out.
 */
public class EngineClient {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** HTTP/1.1 only: the JDK's default would upgrade to h2c, which tests of HTTP/2 ask for by name. */
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final JwtAuthenticator tokens;
    private final URI uri;

    /** A client of {@code 127.0.0.1:port}; {@code tokens} is {@code null} for an unauthenticated port. */
    public EngineClient(int port, JwtAuthenticator tokens) {
        this.tokens = tokens;
        this.uri = URI.create("http://127.0.0.1:" + port + "/");
    }

    /** A client with tokens for {@code secret} (32 bytes) at the system clock's time. */
    public static EngineClient authenticated(int port, byte[] secret) {
        return new EngineClient(port, new JwtAuthenticator(secret, Clock.systemUTC()));
    }

    public URI uri() {
        return uri;
    }

    /** A valid token for now. */
    public String token() {
        return tokens.token();
    }

    /** POSTs {@code json}, with a valid token unless the port is unauthenticated. */
    public HttpResponse<byte[]> post(String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (tokens != null) {
            request.header("Authorization", "Bearer " + token());
        }
        return send(request.build());
    }

    /** POSTs {@code json} and parses the JSON reply (HTTP 200 expected). */
    public JsonNode call(String json) {
        HttpResponse<byte[]> response = post(json);
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode());
        }
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code eth_sendRawTransaction} of {@code raw}: the reply's text, exactly as sent. */
    public String sendRawTransaction(byte[] raw) {
        HttpResponse<byte[]> response =
                post(request(1, "eth_sendRawTransaction", "[\"" + Hex.encodeToString(raw, true) + "\"]"));
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode());
        }
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /** {@code engine_getBlobs<version>} of {@code hashes}: the {@code result}. */
    public JsonNode getBlobs(String version, List<?> hashes) {
        JsonNode reply = call(request(1, "engine_getBlobs" + version, hashParams(hashes)));
        if (!reply.has("result")) {
            throw new AssertionError(reply.toString());
        }
        return reply.get("result");
    }

    public HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A JSON-RPC request text. */
    public static String request(Object id, String method, String paramsJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}";
    }

    /** The exact text of a reply with a {@code DATA} result, e.g. a transaction hash. */
    public static String dataReply(Object id, byte[] data) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":\"" + Hex.encodeToString(data, true) + "\"}";
    }

    /**
     * The exact text of an error reply; {@code message} as JSON text (escaped). A {@code -32000} error also carries
     * {@code data.err}: the message after {@code "Server error: "}.
     */
    public static String errorReply(Object id, int code, String message) {
        String data =
                code == -32000 ? ",\"data\":{\"err\":\"" + message.substring("Server error: ".length()) + "\"}" : "";
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\""
                + data + "}}";
    }

    /** {@code [["0x…", …]]} for the given hashes. */
    public static String hashParams(List<?> hashes) {
        StringBuilder json = new StringBuilder("[[");
        for (int i = 0; i < hashes.size(); i++) {
            json.append(i == 0 ? "" : ",").append('"').append(hashes.get(i)).append('"');
        }
        return json.append("]]").toString();
    }
}
