package io.hexstream.server.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.EndpointUrl;
import io.hexstream.server.text.PeerText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code probe --capabilities}: finds the endpoint's capabilities document (execution-apis #793, {@code refactor.md},
 * "Capabilities &amp; identification") at {@value #V1}, and, where that is {@code 404}, at {@value #V2}, its path in
 * releases before nethermind#13023 and reth#24906 moved it; and says which, in one line: {@code capabilities at
 * /engine/v1/capabilities: forks osaka; blobs v2, v3, v4}, or {@code capabilities at /engine/v2/capabilities (404 at
 * /engine/v1/capabilities): …}. One {@code GET} each, with a fresh JWT, over HTTP/1.1 (the JDK's client), under the
 * URL's path as the blob routes are; a body of at most {@value #MAX_BYTES} bytes. What the server sent is printed
 * escaped ({@link PeerText}).
 */
final class CapabilitiesLookup {
    /** The document's path since nethermind#13023 and reth#24906, as #793 gives it. */
    static final String V1 = "/engine/v1/capabilities";
    /** Its path before them. */
    static final String V2 = "/engine/v2/capabilities";
    /** The largest document read, bytes: ours is about 200. */
    static final int MAX_BYTES = 64 * 1024;

    private CapabilitiesLookup() {}

    /**
     * The line saying where the document is and what it lists.
     *
     * @param base the URL's path, without a trailing {@code /}, e.g. {@code ""}
     * @param deadline {@link System#nanoTime()} past which the lookup gives up
     * @throws IOException in one line, if neither path gives a document, or one could not be read
     */
    static String line(EndpointUrl url, String base, Supplier<String> tokens, long deadline, String late)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(remaining(deadline, late))
                .build();
        HttpResponse<InputStream> first = get(http, url, base + V1, tokens, deadline, late);
        String path = V1;
        String note = "";
        if (first.statusCode() == 404) {
            first.body().close();
            first = get(http, url, base + V2, tokens, deadline, late);
            path = V2;
            note = " (404 at " + V1 + ")";
            if (first.statusCode() == 404) {
                first.body().close();
                throw new IOException("HTTP 404 at " + V1 + " and at " + V2);
            }
        }
        byte[] body;
        try (InputStream in = first.body()) {
            body = in.readNBytes(MAX_BYTES + 1);
        }
        if (first.statusCode() != 200) {
            throw new IOException("HTTP " + first.statusCode() + " at " + path);
        }
        if (body.length > MAX_BYTES) {
            throw new IOException(path + ": more than " + MAX_BYTES + " bytes");
        }
        JsonNode document;
        try {
            document = new ObjectMapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw new IOException(path + ": not JSON: " + e.getOriginalMessage());
        }
        if (document == null || !document.isObject()) {
            throw new IOException(path + ": not a JSON object");
        }
        return "capabilities at " + path + note + ": forks " + names(document.path("supported_forks")) + "; blobs "
                + names(document.path("independently_versioned").path("blobs"));
    }

    private static HttpResponse<InputStream> get(
            HttpClient http, EndpointUrl url, String path, Supplier<String> tokens, long deadline, String late)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + url.hostHeader() + path))
                .header("Authorization", "Bearer " + tokens.get())
                .timeout(remaining(deadline, late))
                .GET()
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw new IOException(late, e);
        }
    }

    /** The strings of array {@code node}, escaped, e.g. {@code v2, v3}; {@code -} for none or no array. */
    private static String names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.forEach(name -> names.add(PeerText.escape(name.asText())));
        return names.isEmpty() ? "-" : PeerText.escape(String.join(", ", names), ProbeCommand.MAX_FAULT_CHARS);
    }

    private static Duration remaining(long deadline, String late) throws IOException {
        long nanos = deadline - System.nanoTime();
        if (nanos <= 0) {
            throw new IOException(late);
        }
        return Duration.ofNanos(nanos);
    }
}
