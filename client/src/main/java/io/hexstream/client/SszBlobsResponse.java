package io.hexstream.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

    private static final JsonFactory JSON = new JsonFactory();

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
        try (JsonParser body = JSON.createParser(problem.toByteArray())) {
            appendProblem(body, line);
        } catch (IOException | RuntimeException e) {
            line.setLength(bare); // not a problem document: the status says it all
        }
        if (line.length() == bare) {
            line.append(' ').append(status.reasonPhrase());
        }
        return line.toString().replaceAll("\\R", " ");
    }

    /**
     * Appends the problem document's {@code title} (else the last segment of its {@code type}) and {@code detail}, its
     * top-level string members (the last of a name if repeated), to {@code line}.
     */
    private static void appendProblem(JsonParser body, StringBuilder line) throws IOException {
        if (body.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("not a JSON object");
        }
        boolean hasTitle = false;
        String title = null;
        String type = null;
        String detail = null;
        while (body.nextToken() == JsonToken.FIELD_NAME) {
            String name = body.currentName();
            JsonToken value = body.nextToken();
            String text = value == JsonToken.VALUE_STRING ? body.getText() : null;
            switch (name) {
                case "title" -> {
                    hasTitle = true;
                    title = text;
                }
                case "type" -> type = text;
                case "detail" -> detail = text;
                default -> {}
            }
            body.skipChildren(); // an object or array value; a no-op on a scalar
        }
        if (title != null) {
            line.append(' ').append(title);
        } else if (type != null) {
            line.append(' ').append(hasTitle ? type : type.substring(type.lastIndexOf('/') + 1));
        }
        if (detail != null) {
            line.append(": ").append(detail);
        }
    }
}
