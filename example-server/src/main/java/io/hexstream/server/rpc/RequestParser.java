package io.hexstream.server.rpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.util.ByteBufferBackedInputStream;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * Parses a JSON-RPC 2.0 request or batch with Jackson's streaming parser, straight from the request {@link ByteBuf} (no
 * {@code String} of the body, no tree). Each request of a batch is judged on its own; only malformed JSON fails the
 * whole body. The array params of a method with an {@link ElementReader} are bounded and decoded as they are read: the
 * element one over the bound ends the array's reading (the rest is skipped, no value of it made). When {@code params}
 * comes before {@code method} in the request object, it is skipped and read again from the body once the method is
 * known.
 */
public final class RequestParser {
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    /** Parsed requests, and whether the body was a batch (an array). */
    public record Parsed(List<RpcRequest> requests, boolean batch) {}

    private final JsonFactory factory;
    private final int maxBatchSize;
    private final ServerMetrics metrics;

    /**
     * @param maxRequestBytes the largest body the server takes (bounds the longest string)
     * @param maxBatchSize the most requests in a batch ({@code --max-batch-size}); a larger batch is one {@code -32600}
     * @param metrics told each batch refused for its size
     */
    public RequestParser(int maxRequestBytes, int maxBatchSize, ServerMetrics metrics) {
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("max batch size " + maxBatchSize + " < 1");
        }
        this.maxBatchSize = maxBatchSize;
        this.metrics = metrics;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxStringLength(maxRequestBytes)
                        .build())
                .build();
    }

    /**
     * Parses {@code body} (its readable bytes; indices not moved).
     *
     * @param readers each method's {@link ElementReader} by name, {@code null} for none (its arrays kept as strings)
     * @throws RpcException {@code -32700} for malformed JSON, {@code -32600} for an empty batch or one of more than
     *     {@code maxBatchSize} requests (found as the parser reaches the one too many)
     */
    public Parsed parse(ByteBuf body, Function<String, ElementReader> readers) throws RpcException {
        try (JsonParser parser = factory.createParser(stream(body))) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new RpcException(RpcError.PARSE_ERROR, "empty body");
            }
            Parsed parsed;
            if (first == JsonToken.START_ARRAY) {
                List<RpcRequest> requests = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    if (requests.size() == maxBatchSize) {
                        metrics.refused(ServerMetrics.Limit.MAX_BATCH_SIZE);
                        throw new RpcException(
                                RpcError.INVALID_REQUEST,
                                "batch of more than " + maxBatchSize + " requests (--max-batch-size)");
                    }
                    requests.add(request(parser, body, readers));
                }
                if (requests.isEmpty()) {
                    throw new RpcException(RpcError.INVALID_REQUEST, "empty batch");
                }
                parsed = new Parsed(requests, true);
            } else {
                parsed = new Parsed(List.of(request(parser, body, readers)), false);
            }
            if (parser.nextToken() != null) {
                throw new RpcException(RpcError.PARSE_ERROR, "trailing content after the JSON value");
            }
            return parsed;
        } catch (JsonProcessingException e) {
            // A limit of the parser (nesting depth, number length: StreamConstraintsException) has no location.
            JsonLocation at = e.getLocation();
            throw new RpcException(
                    RpcError.PARSE_ERROR,
                    e.getOriginalMessage() + (at == null ? "" : " at byte " + at.getByteOffset()));
        } catch (IOException e) {
            throw new RpcException(RpcError.PARSE_ERROR, e.getMessage());
        }
    }

    /**
     * The readable bytes of {@code body} as a stream over its NIO buffers: one access to the buffer (a composite from
     * the aggregator holds a component per content chunk), not one per read.
     */
    private static InputStream stream(ByteBuf body) {
        ByteBuffer[] buffers = body.nioBuffers();
        if (buffers.length == 1) {
            return new ByteBufferBackedInputStream(buffers[0]);
        }
        return new SequenceInputStream(Collections.enumeration(
                Arrays.stream(buffers).map(ByteBufferBackedInputStream::new).toList()));
    }

    /** One request; the parser is on its first token and is left on its last. */
    private RpcRequest request(JsonParser parser, ByteBuf body, Function<String, ElementReader> readers)
            throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return new RpcRequest(NULL, null, Params.NONE, "a request must be a JSON object");
        }
        byte[] id = null;
        String method = null;
        String jsonrpc = null;
        Params params = Params.NONE;
        long paramsAt = -1; // where params read before the method begin in the body, to be read again
        long paramsEnd = -1;
        String invalid = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "jsonrpc" -> {
                    jsonrpc = value == JsonToken.VALUE_STRING ? parser.getText() : "";
                    parser.skipChildren();
                }
                case "id" -> {
                    id = idToken(parser, value);
                    if (id == null) {
                        invalid = "id must be a number, a string or null";
                        parser.skipChildren();
                    }
                }
                case "method" -> {
                    if (value == JsonToken.VALUE_STRING) {
                        method = parser.getText();
                    } else {
                        invalid = "method must be a string";
                        parser.skipChildren();
                    }
                }
                case "params" -> {
                    paramsAt = -1; // the last params member counts
                    if (value == JsonToken.START_ARRAY && method != null) {
                        params = params(parser, readers.apply(method));
                    } else if (value == JsonToken.START_ARRAY) {
                        paramsAt = parser.currentTokenLocation().getByteOffset();
                        parser.skipChildren();
                        paramsEnd = parser.currentLocation().getByteOffset();
                    } else if (value == JsonToken.START_OBJECT) {
                        params = Params.BY_NAME;
                        parser.skipChildren();
                    } else {
                        invalid = "params must be an array";
                        parser.skipChildren();
                    }
                }
                default -> parser.skipChildren();
            }
        }
        if (invalid == null && !"2.0".equals(jsonrpc)) {
            invalid = "jsonrpc must be \"2.0\"";
        }
        if (invalid == null && method == null) {
            invalid = "method is missing";
        }
        if (invalid != null) {
            return new RpcRequest(id == null ? NULL : id, null, Params.NONE, invalid);
        }
        if (paramsAt >= 0) {
            params = paramsAgain(
                    body.slice(body.readerIndex() + (int) paramsAt, (int) (paramsEnd - paramsAt)), method, readers);
        }
        return new RpcRequest(id, method, params, null);
    }

    /** The params in {@code array} (the bytes of a JSON array, parsed once already), read for {@code method}. */
    private Params paramsAgain(ByteBuf array, String method, Function<String, ElementReader> readers)
            throws IOException {
        try (JsonParser parser = factory.createParser(stream(array))) {
            parser.nextToken();
            return params(parser, readers.apply(method));
        }
    }

    /** The id's exact JSON token, or {@code null} if the value may not be an id. */
    private static byte[] idToken(JsonParser parser, JsonToken value) throws IOException {
        return switch (value) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getText().getBytes(StandardCharsets.US_ASCII);
            case VALUE_NULL -> NULL;
            case VALUE_STRING -> {
                byte[] escaped = JsonStringEncoder.getInstance().quoteAsUTF8(parser.getText());
                byte[] quoted = new byte[escaped.length + 2];
                quoted[0] = '"';
                System.arraycopy(escaped, 0, quoted, 1, escaped.length);
                quoted[quoted.length - 1] = '"';
                yield quoted;
            }
            default -> null;
        };
    }

    /** The params array the parser is on; its array params read by {@code reader} unless {@code null}. */
    private static Params params(JsonParser parser, ElementReader reader) throws IOException {
        List<Object> params = new ArrayList<>(1);
        for (JsonToken token; (token = parser.nextToken()) != JsonToken.END_ARRAY; ) {
            if (token == JsonToken.VALUE_STRING) {
                params.add(parser.getText());
            } else if (token == JsonToken.START_ARRAY) {
                params.add(reader == null ? strings(parser) : decoded(parser, reader));
            } else {
                parser.skipChildren();
                params.add(Params.OTHER);
            }
        }
        return Params.positional(params);
    }

    /** The array the parser is on, as strings, or {@link Params#OTHER} if an element is not one. */
    private static Object strings(JsonParser parser) throws IOException {
        List<String> strings = new ArrayList<>();
        boolean allStrings = true;
        for (JsonToken element; (element = parser.nextToken()) != JsonToken.END_ARRAY; ) {
            if (element == JsonToken.VALUE_STRING) {
                strings.add(parser.getText());
            } else {
                allStrings = false;
                parser.skipChildren();
            }
        }
        return allStrings ? strings : Params.OTHER;
    }

    /**
     * The array the parser is on, its elements decoded by {@code reader}: refused at the element one over its bound,
     * {@link Params#OTHER} at one that is not a string; either way the rest is skipped unread. After an element that
     * does not decode, the others are only counted.
     */
    private static Object decoded(JsonParser parser, ElementReader reader) throws IOException {
        List<Object> values = new ArrayList<>();
        RpcException invalid = null;
        for (JsonToken element; (element = parser.nextToken()) != JsonToken.END_ARRAY; ) {
            if (element != JsonToken.VALUE_STRING || values.size() == reader.maxElements()) {
                skipRest(parser);
                return element != JsonToken.VALUE_STRING
                        ? Params.OTHER
                        : new DecodedArray(null, reader.tooMany(), null);
            }
            Object value = null;
            if (invalid == null) {
                try {
                    value = reader.decode(
                            parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength(), values.size());
                } catch (RpcException e) {
                    invalid = e;
                }
            }
            values.add(value);
        }
        return new DecodedArray(values.toArray(), null, invalid);
    }

    /** Skips the element the parser is on and the rest of its array, leaving the parser on the array's end. */
    private static void skipRest(JsonParser parser) throws IOException {
        parser.skipChildren();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            parser.skipChildren();
        }
    }
}
