package io.hexstream.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.http.HttpResponseConsumer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The response to one REST getBlobs request, read as it arrives: {@code 200} an SSZ body read by an
 * {@link SszBlobsReader}; {@code 204 No Content} the server cannot serve (V2: a blob is missing), told to the listener
 * as a {@code null} result; any other status fails the call with a {@link BadResponseException} of one line, its status
 * and, from an {@code application/problem+json} body (RFC 7807; its first {@value #MAX_PROBLEM} bytes), its
 * {@code title} or {@code type}, and {@code detail}: {@code HTTP 413 request-too-large: 129 versioned hashes, at most
 * 128}.
 *
 * <p>Ownership: as {@link SszBlobsReader}'s. Called on the connection's event loop only.
 */
final class SszBlobsResponse implements HttpResponseConsumer {
    /** The most bytes of an error body kept. */
    static final int MAX_PROBLEM = 4096;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final GetBlobsCall call;
    private final BlobsListener listener;
    private final long start;
    private final SszBlobsReader reader;
    private final CompletableFuture<BlobsOutcome> outcome = new CompletableFuture<>();

    private long toHead;
    private HttpResponseStatus status;
    private ByteArrayOutputStream problem;

    SszBlobsResponse(GetBlobsCall call, BlobsListener listener, ByteBufAllocator allocator, long start) {
        this.call = call;
        this.listener = listener;
        this.start = start;
        this.reader = new SszBlobsReader(call, listener, allocator, start);
    }

    /** Completes with the outcome once the response has ended, or fails. */
    CompletableFuture<BlobsOutcome> outcome() {
        return outcome;
    }

    @Override
    public void head(HttpResponse head) {
        toHead = System.nanoTime() - start;
        status = head.status();
        if (status.code() == HttpResponseStatus.NO_CONTENT.code()) {
            listener.nullResult();
        } else if (status.code() != HttpResponseStatus.OK.code()) {
            problem = new ByteArrayOutputStream();
        }
    }

    @Override
    public void content(ByteBuf chunk) {
        if (problem != null) {
            int n = Math.min(chunk.readableBytes(), MAX_PROBLEM - problem.size());
            byte[] bytes = new byte[n];
            chunk.readBytes(bytes);
            problem.writeBytes(bytes);
        } else if (status.code() == HttpResponseStatus.OK.code()) {
            reader.feed(chunk);
        } else if (chunk.isReadable()) {
            throw new BadResponseException("HTTP 204 with a body");
        }
    }

    @Override
    public void complete() {
        long toLastByte = System.nanoTime() - start;
        if (problem != null) {
            throw new BadResponseException(problemLine());
        }
        if (status.code() == HttpResponseStatus.OK.code()) {
            reader.end();
        }
        outcome.complete(new BlobsOutcome(
                call.hashes().size(),
                reader.available(),
                reader.bodyBytes(),
                toHead,
                reader.toFirstBlob(),
                toLastByte));
    }

    @Override
    public void failed(Throwable cause) {
        reader.release();
        outcome.completeExceptionally(cause);
    }

    private String problemLine() {
        StringBuilder line = new StringBuilder("HTTP ").append(status.code());
        int bare = line.length();
        try {
            JsonNode body = JSON.readTree(problem.toByteArray());
            JsonNode title = body.path("title").isTextual() ? body.path("title") : body.path("type");
            if (title.isTextual()) {
                String text = title.asText();
                line.append(' ').append(body.has("title") ? text : text.substring(text.lastIndexOf('/') + 1));
            }
            if (body.path("detail").isTextual()) {
                line.append(": ").append(body.path("detail").asText());
            }
        } catch (IOException | RuntimeException e) {
            line.setLength(bare); // not a problem document: the status says it all
        }
        if (line.length() == bare) {
            line.append(' ').append(status.reasonPhrase());
        }
        return line.toString().replaceAll("\\R", " ");
    }
}
