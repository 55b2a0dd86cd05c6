package io.hexstream.codec.json;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Records a JSON document for a {@link JsonBody}, as a streaming generator would write it (compact,
 * commas inserted), without producing any hex. Hex values reference their source: a {@code byte[]}
 * region is read when the body is produced (do not change it before), a {@link ByteBuf} is retained
 * until the body is released, a {@link ByteBuffer} is duplicated (its position and limit are not
 * touched).
 *
 * <p>Names and {@link #string(String) string} values must be printable ASCII without {@code "} or
 * {@code \} (they are written as they are); anything else, such as a request id token or an error
 * object, goes in as {@link #raw(byte[]) raw} JSON, rendered by a JSON library.
 *
 * <p>Not thread-safe. If building fails or is abandoned, {@link #close()} releases what was retained;
 * after {@link #build()} it does nothing.
 *
 * <pre>
 * try (JsonBodyBuilder b = JsonBody.builder()) {
 *     b.beginObject().name("jsonrpc").string("2.0").name("id").raw("1").name("result").beginArray();
 *     b.beginObject().name("blob").hex(blob).name("proofs").hexArray(proofs, 0, 48, 128).endObject();
 *     return b.endArray().endObject().build();
 * }
 * </pre>
 */
public final class JsonBodyBuilder implements AutoCloseable {
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private final List<Segment> segments = new ArrayList<>();
    private byte[] literal = new byte[256];
    private int literalLength;
    private int literalStart;

    /** Open containers, innermost last: true for an object. */
    private boolean[] objects = new boolean[8];
    private int depth;
    /** Whether the innermost container (or the top level) already holds a value. */
    private boolean hasValue;
    /** Whether a name was just written, so a value must follow. */
    private boolean afterName;
    private boolean done;

    JsonBodyBuilder() {}

    public JsonBodyBuilder beginObject() {
        beforeValue();
        push(true);
        appendByte('{');
        return this;
    }

    public JsonBodyBuilder endObject() {
        pop(true);
        appendByte('}');
        return this;
    }

    public JsonBodyBuilder beginArray() {
        beforeValue();
        push(false);
        appendByte('[');
        return this;
    }

    public JsonBodyBuilder endArray() {
        pop(false);
        appendByte(']');
        return this;
    }

    /** An object member's name, {@code "name":}. */
    public JsonBodyBuilder name(String name) {
        if (depth == 0 || !objects[depth - 1] || afterName) {
            throw new IllegalStateException("a name belongs directly inside an object, before its value");
        }
        if (hasValue) {
            appendByte(',');
        }
        appendQuoted(name);
        appendByte(':');
        afterName = true;
        return this;
    }

    /** A string value written as it is: printable ASCII without {@code "} or {@code \}. */
    public JsonBodyBuilder string(String value) {
        beforeValue();
        appendQuoted(value);
        return this;
    }

    /** {@code null}. */
    public JsonBodyBuilder nullValue() {
        return raw(NULL);
    }

    /** One complete JSON value, already rendered (UTF-8), written as it is: e.g. a request's id token. */
    public JsonBodyBuilder raw(byte[] json) {
        beforeValue();
        appendBytes(json, 0, json.length);
        return this;
    }

    /** One complete JSON value, already rendered, written as it is (UTF-8). */
    public JsonBodyBuilder raw(String json) {
        return raw(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The string {@code "0x…"} of all of {@code src}, read when the body is produced. */
    public JsonBodyBuilder hex(byte[] src) {
        return hex(src, 0, src.length);
    }

    /** The string {@code "0x…"} of {@code src[offset, offset + length)}, read when the body is produced. */
    public JsonBodyBuilder hex(byte[] src, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, src.length);
        return hexSegment(HexSource.of(src, offset), length, 1, false);
    }

    /**
     * The string {@code "0x…"} of {@code src}'s readable bytes. The body retains {@code src} (it is
     * released with the body); the caller keeps its own reference and {@code src}'s indices.
     */
    public JsonBodyBuilder hex(ByteBuf src) {
        int length = src.readableBytes();
        beforeValue();
        addSegment(new HexSegment(HexSource.of(src.retain(), src.readerIndex()), length, 1, false));
        return this;
    }

    /** The string {@code "0x…"} of {@code src}'s remaining bytes; its position and limit are not touched. */
    public JsonBodyBuilder hex(ByteBuffer src) {
        return hexSegment(HexSource.of(src.slice()), src.remaining(), 1, false);
    }

    /**
     * A JSON array of {@code count} hex strings of {@code size} bytes each, lying back to back from
     * {@code src[offset]}: e.g. 128 cell proofs of 48 bytes. One segment, whatever the count.
     */
    public JsonBodyBuilder hexArray(byte[] src, int offset, int size, int count) {
        if (size < 0 || count < 0) {
            throw new IllegalArgumentException("size " + size + " and count " + count + " must not be negative");
        }
        Objects.checkFromIndexSize(offset, Math.multiplyExact(size, count), src.length);
        Hex.encodedLength(size, true);
        return hexSegment(HexSource.of(src, offset), size, count, true);
    }

    /**
     * The finished body; this builder is then spent.
     *
     * @throws IllegalStateException if the document is not one complete JSON value
     */
    public JsonBody build() {
        if (done) {
            throw new IllegalStateException("already built or closed");
        }
        if (depth != 0 || !hasValue) {
            throw new IllegalStateException(depth != 0 ? depth + " container(s) still open" : "no value written");
        }
        flushLiteral();
        done = true;
        return new JsonBody(segments.toArray(new Segment[0]));
    }

    /** Releases every reference taken so far, unless {@link #build()} handed them to a body. Idempotent. */
    @Override
    public void close() {
        if (!done) {
            done = true;
            segments.forEach(Segment::release);
            segments.clear();
        }
    }

    private JsonBodyBuilder hexSegment(HexSource source, int size, int count, boolean bracketed) {
        beforeValue();
        addSegment(new HexSegment(source, size, count, bracketed));
        return this;
    }

    private void addSegment(Segment segment) {
        flushLiteral();
        segments.add(segment);
    }

    private void flushLiteral() {
        if (literalLength > literalStart) {
            // Later literals only ever append past literalLength (or into a grown copy), so the
            // segment's region of this array is never overwritten.
            segments.add(new LiteralSegment(literal, literalStart, literalLength - literalStart));
            literalStart = literalLength;
        }
    }

    private void beforeValue() {
        if (done) {
            throw new IllegalStateException("already built or closed");
        }
        if (depth == 0) {
            if (hasValue) {
                throw new IllegalStateException("a JSON document holds one top-level value");
            }
        } else if (objects[depth - 1]) {
            if (!afterName) {
                throw new IllegalStateException("a value inside an object needs a name first");
            }
        } else if (hasValue) {
            appendByte(',');
        }
        afterName = false;
        hasValue = true;
    }

    private void push(boolean object) {
        if (depth == objects.length) {
            objects = Arrays.copyOf(objects, 2 * depth);
        }
        objects[depth++] = object;
        hasValue = false;
    }

    private void pop(boolean object) {
        if (depth == 0 || objects[depth - 1] != object || afterName) {
            throw new IllegalStateException("no open " + (object ? "object" : "array") + " to end here");
        }
        depth--;
        hasValue = true;
    }

    private void appendQuoted(String text) {
        ensureRoom(text.length() + 2);
        literal[literalLength++] = '"';
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
                throw new IllegalArgumentException("character " + (int) c + " at index " + i
                        + " needs escaping; pass the value as raw JSON instead");
            }
            literal[literalLength++] = (byte) c;
        }
        literal[literalLength++] = '"';
    }

    private void appendByte(int b) {
        ensureRoom(1);
        literal[literalLength++] = (byte) b;
    }

    private void appendBytes(byte[] bytes, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(bytes, offset, literal, literalLength, length);
        literalLength += length;
    }

    private void ensureRoom(int n) {
        if (literalLength + n > literal.length) {
            literal = Arrays.copyOf(literal, Math.max(2 * literal.length, literalLength + n));
        }
    }
}
