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
 * <p>Names and {@link #string(String) string} values are any Java {@code String}, written as UTF-8
 * with JSON escapes where needed. Hex values are {@code "0x…"} (lowercase digits, two per byte) unless
 * asked for without the prefix, per value ({@code prefix = false}: {@code "…"}). A value already
 * rendered as JSON (a request's id token) goes in as {@link #raw(byte[]) raw}.
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
    /** Control characters with a two-character escape, and the letter that follows the backslash. */
    private static final String SHORT_ESCAPES = "\b\t\n\f\r";
    private static final String SHORT_ESCAPE_LETTERS = "btnfr";
    private static final String UPPER_DIGITS = "0123456789ABCDEF";

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

    /** An object member's name, {@code "name":}, escaped as {@link #string(String)} escapes. */
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

    /**
     * A string value, {@code "value"} in UTF-8: {@code "} and {@code \} escaped by a backslash, control
     * characters below U+0020 as {@code \b \t \n \f \r} or {@code \}{@code u00XX} (as Jackson writes
     * them), every other character as its UTF-8 bytes; an unpaired surrogate (which has no UTF-8 form)
     * as {@code \}{@code uXXXX}.
     */
    public JsonBodyBuilder string(String value) {
        beforeValue();
        appendQuoted(value);
        return this;
    }

    /** A number value in decimal, {@code -12}. */
    public JsonBodyBuilder number(long value) {
        return raw(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
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
        return hex(src, 0, src.length, true);
    }

    /** The string {@code "0x…"} of {@code src[offset, offset + length)}, as {@link #hex(byte[], int, int, boolean)}. */
    public JsonBodyBuilder hex(byte[] src, int offset, int length) {
        return hex(src, offset, length, true);
    }

    /**
     * The hex string of {@code src[offset, offset + length)}, {@code "0x…"} or, without {@code prefix},
     * {@code "…"}: {@code 2 * length} digits, read when the body is produced.
     *
     * @throws IndexOutOfBoundsException if the region is out of {@code src}'s bounds
     */
    public JsonBodyBuilder hex(byte[] src, int offset, int length, boolean prefix) {
        Objects.checkFromIndexSize(offset, length, src.length);
        return hexSegment(HexSource.of(src, offset), length, 1, false, prefix);
    }

    /** The string {@code "0x…"} of {@code src}'s readable bytes, as {@link #hex(ByteBuf, boolean)}. */
    public JsonBodyBuilder hex(ByteBuf src) {
        return hex(src, true);
    }

    /**
     * The hex string of {@code src}'s readable bytes, {@code "0x…"} or, without {@code prefix},
     * {@code "…"}. The body retains {@code src} (it is released with the body); the caller keeps its
     * own reference and {@code src}'s indices.
     */
    public JsonBodyBuilder hex(ByteBuf src, boolean prefix) {
        int length = src.readableBytes();
        beforeValue();
        addSegment(new HexSegment(HexSource.of(src.retain(), src.readerIndex()), length, 1, false, prefix));
        return this;
    }

    /** The string {@code "0x…"} of {@code src}'s remaining bytes, as {@link #hex(ByteBuffer, boolean)}. */
    public JsonBodyBuilder hex(ByteBuffer src) {
        return hex(src, true);
    }

    /**
     * The hex string of {@code src}'s remaining bytes, {@code "0x…"} or, without {@code prefix},
     * {@code "…"}; its position and limit are not touched.
     */
    public JsonBodyBuilder hex(ByteBuffer src, boolean prefix) {
        return hexSegment(HexSource.of(src.slice()), src.remaining(), 1, false, prefix);
    }

    /**
     * A hex string value whose digits are already encoded: {@code digits}' readable bytes, ASCII hex
     * digits (lowercase, as {@link #hex(ByteBuf, boolean)} would write them; not checked, so the
     * caller vouches for them), framed as {@code "0x…"} or, without {@code prefix}, {@code "…"}. Its
     * exact length is {@code digits.readableBytes()} plus 4 (or 2). The body retains {@code digits}
     * and releases it with the body (or {@link #close()} does, if the build fails); the caller keeps its
     * own reference and {@code digits}' indices. A {@link JsonBodyInput} hands a long value on as
     * retained slices of {@code digits}, not copied.
     */
    public JsonBodyBuilder encodedHex(ByteBuf digits, boolean prefix) {
        return encodedHexArray(digits, digits.readableBytes(), 1, false, prefix);
    }

    /**
     * A JSON array of {@code count} hex strings whose digits are already encoded, {@code elementDigits}
     * bytes each, back to back in {@code digits}' readable bytes: as {@link #encodedHex} per element,
     * {@code ["0x…","0x…",…]} ({@code []} when {@code count} is 0). One segment, whatever the count.
     *
     * @throws IllegalArgumentException if {@code elementDigits} or {@code count} is negative, or
     *     {@code digits} does not hold exactly {@code elementDigits * count} readable bytes
     */
    public JsonBodyBuilder encodedHexArray(ByteBuf digits, int elementDigits, int count, boolean prefix) {
        return encodedHexArray(digits, elementDigits, count, true, prefix);
    }

    private JsonBodyBuilder encodedHexArray(ByteBuf digits, int elementDigits, int count, boolean bracketed,
            boolean prefix) {
        if (elementDigits < 0 || count < 0 || (long) elementDigits * count != digits.readableBytes()) {
            throw new IllegalArgumentException(count + " values of " + elementDigits + " digits in "
                    + digits.readableBytes() + " readable bytes");
        }
        beforeValue();
        addSegment(new EncodedSegment(digits.retain(), elementDigits, count, bracketed, prefix));
        return this;
    }

    /**
     * Values of the open array, one per entry of {@code indices[from, from + count)}, whose digits are
     * already encoded: for an index {@code i >= 0}, the {@code elementDigits} ASCII hex digits at
     * {@code [i * elementDigits, (i + 1) * elementDigits)} of {@code digits}' readable bytes, framed as
     * {@link #encodedHex} frames them ({@code "0x…"}, or {@code "…"} without {@code prefix}); for a
     * negative index, {@code null}. {@link #hexElements(byte[], int, int, int[], int, int, boolean)} for
     * digits given encoded: e.g. cells {@code [3, 70, -1]} picked from a blob's cached digits. Each run of
     * consecutive non-negative indices is one segment, which retains {@code digits} (released with the
     * body); {@code indices} is read when the body is produced (do not change it before).
     *
     * @throws IllegalStateException if no array is the innermost open container
     * @throws IllegalArgumentException if {@code elementDigits} or {@code count} is negative
     * @throws IndexOutOfBoundsException if {@code [from, from + count)} is out of {@code indices}, or an
     *     index's element is out of {@code digits}' readable bytes; nothing is written then
     */
    public JsonBodyBuilder encodedHexElements(ByteBuf digits, int elementDigits, int[] indices, int from, int count,
            boolean prefix) {
        checkElements(elementDigits, indices, from, count, digits.readableBytes(), 0);
        int end = from + count;
        for (int k = nullsFrom(indices, from, end), run; k < end; k = nullsFrom(indices, run, end)) {
            run = runEnd(indices, k, end);
            addSegment(new EncodedSegment(digits.retain(), elementDigits, indices, k, run - k, false, prefix));
        }
        return this;
    }

    /** {@code ["0x…",…]}: as {@link #hexArray(byte[], int, int, int, boolean)} with the prefix. */
    public JsonBodyBuilder hexArray(byte[] src, int offset, int size, int count) {
        return hexArray(src, offset, size, count, true);
    }

    /**
     * A JSON array of {@code count} hex strings of {@code size} bytes each, lying back to back from
     * {@code src[offset]}: e.g. 128 cell proofs of 48 bytes, {@code ["0x…","0x…",…]} (or {@code "…"}
     * elements without {@code prefix}); {@code []} when {@code count} is 0. One segment, whatever the
     * count.
     *
     * @throws IllegalArgumentException if {@code size} or {@code count} is negative
     * @throws IndexOutOfBoundsException if {@code size * count} bytes from {@code offset} are out of bounds
     */
    public JsonBodyBuilder hexArray(byte[] src, int offset, int size, int count, boolean prefix) {
        if (size < 0 || count < 0) {
            throw new IllegalArgumentException("size " + size + " and count " + count + " must not be negative");
        }
        Objects.checkFromIndexSize(offset, Math.multiplyExact(size, count), src.length);
        Hex.encodedLength(size, true);
        return hexSegment(HexSource.of(src, offset), size, count, true, prefix);
    }

    /** Values {@code "0x…"} or {@code null}: as {@link #hexElements(byte[], int, int, int[], int, int, boolean)} with the prefix. */
    public JsonBodyBuilder hexElements(byte[] src, int offset, int size, int[] indices, int from, int count) {
        return hexElements(src, offset, size, indices, from, count, true);
    }

    /**
     * Values of the open array, one per entry of {@code indices[from, from + count)}, picked from
     * {@code src} by index: for an index {@code i >= 0}, the hex string of the {@code size}-byte element
     * {@code src[offset + i * size, offset + (i + 1) * size)} ({@code "0x…"}, {@code 2 * size} digits, or
     * {@code "…"} without {@code prefix}); for a negative index, {@code null}. For example the 2,048-byte
     * cells {@code [3, 70, -1]} of an array of cells, beside values of other sources in the same array;
     * nothing is written when {@code count} is 0. The elements are referenced, not copied: each run of
     * consecutive non-negative indices is one segment whatever its length, and {@code src} and
     * {@code indices} are read when the body is produced (change neither before). The body's length
     * is exact at once.
     *
     * @throws IllegalStateException if no array is the innermost open container
     * @throws IllegalArgumentException if {@code size} or {@code count} is negative
     * @throws IndexOutOfBoundsException if {@code [from, from + count)} is out of {@code indices}, or an
     *     index's element is out of {@code src}; nothing is written then
     */
    public JsonBodyBuilder hexElements(byte[] src, int offset, int size, int[] indices, int from, int count,
            boolean prefix) {
        checkElements(size, indices, from, count, src.length, offset);
        Hex.encodedLength(size, true);
        int end = from + count;
        for (int k = nullsFrom(indices, from, end), run; k < end; k = nullsFrom(indices, run, end)) {
            run = runEnd(indices, k, end);
            addSegment(new HexSegment(HexSource.of(src, offset), size, indices, k, run - k, false, prefix));
        }
        return this;
    }

    /**
     * A value built before as a body of its own, e.g. one reply of a batch: {@code value}'s bytes, exactly
     * {@code value.length()} of them. Takes {@code value} over: its segments move into this body (nothing
     * is copied) and {@code value} is released, so the caller must hold its only reference.
     *
     * @throws IllegalStateException if {@code value} has another reference, or no value may go here;
     *     {@code value} is not taken then
     */
    public JsonBodyBuilder value(JsonBody value) {
        if (value.refCnt() != 1) {
            throw new IllegalStateException("a body taken over must have one reference, not " + value.refCnt());
        }
        beforeValue();
        flushLiteral();
        segments.addAll(value.handOver());
        return this;
    }

    /** {@code ["0x…",…]}: as {@link #hexArray(List, boolean)} with the prefix. */
    public JsonBodyBuilder hexArray(List<byte[]> values) {
        return hexArray(values, true);
    }

    /**
     * A JSON array of one hex string per element of {@code values}, in order, each of its own length
     * ({@code ["0x…",…]}, or {@code "…"} elements without {@code prefix}; {@code []} when empty). The
     * arrays are read when the body is produced; the list itself is not kept.
     */
    public JsonBodyBuilder hexArray(List<byte[]> values, boolean prefix) {
        beginArray();
        for (byte[] value : values) {
            hex(value, 0, value.length, prefix);
        }
        return endArray();
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
        return new JsonBody(segments);
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

    /**
     * Writes {@code null} for each negative index of {@code indices} from {@code k}; returns where the
     * next run of non-negative ones starts ({@code end} if none). Index runs are segments, with no object
     * per call beyond them: {@code hexElements} is called a few times per blob of a getBlobsV4 answer.
     */
    private int nullsFrom(int[] indices, int k, int end) {
        for (; k < end && indices[k] < 0; k++) {
            nullValue();
        }
        if (k < end) {
            beforeValue();
        }
        return k;
    }

    /** The end of the run of non-negative indices that starts at {@code k}. */
    private static int runEnd(int[] indices, int k, int end) {
        while (k < end && indices[k] >= 0) {
            k++;
        }
        return k;
    }

    /**
     * The checks of {@code hexElements} and {@code encodedHexElements}: an open array, non-negative sizes,
     * {@code [from, from + count)} within {@code indices}, and every non-negative index's element of
     * {@code size} units within {@code [offset, length)}.
     */
    private void checkElements(int size, int[] indices, int from, int count, int length, int offset) {
        if (done) {
            throw new IllegalStateException("already built or closed");
        }
        if (depth == 0 || objects[depth - 1]) {
            throw new IllegalStateException("hex elements are values of an open array");
        }
        if (size < 0 || count < 0) {
            throw new IllegalArgumentException("size " + size + " and count " + count + " must not be negative");
        }
        Objects.checkFromIndexSize(from, count, indices.length);
        for (int k = from; k < from + count; k++) {
            if (indices[k] >= 0) {
                Objects.checkFromIndexSize(offset + (long) indices[k] * size, size, length);
            }
        }
    }

    private JsonBodyBuilder hexSegment(HexSource source, int size, int count, boolean bracketed, boolean prefix) {
        beforeValue();
        addSegment(new HexSegment(source, size, count, bracketed, prefix));
        return this;
    }

    private void addSegment(Segment segment) {
        flushLiteral();
        segments.add(segment);
    }

    private void flushLiteral() {
        if (literalLength > literalStart) {
            // Later literals only ever append past literalLength (or into a new array), so the
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
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                literal[literalLength++] = (byte) c;
            } else {
                i = appendEscaped(text, i);
                ensureRoom(text.length() - i + 1);
            }
        }
        literal[literalLength++] = '"';
    }

    /** Appends the character at {@code i} that is not plain ASCII; returns the index of its last char. */
    private int appendEscaped(String text, int i) {
        char c = text.charAt(i);
        ensureRoom(6);
        if (c == '"' || c == '\\') {
            literal[literalLength++] = '\\';
            literal[literalLength++] = (byte) c;
        } else if (c < 0x20) {
            int shortForm = SHORT_ESCAPES.indexOf(c);
            if (shortForm >= 0) {
                literal[literalLength++] = '\\';
                literal[literalLength++] = (byte) SHORT_ESCAPE_LETTERS.charAt(shortForm);
            } else {
                appendUnicodeEscape(c);
            }
        } else if (c < 0x800) {
            literal[literalLength++] = (byte) (0xC0 | c >> 6);
            literal[literalLength++] = (byte) (0x80 | c & 0x3F);
        } else if (!Character.isSurrogate(c)) {
            literal[literalLength++] = (byte) (0xE0 | c >> 12);
            literal[literalLength++] = (byte) (0x80 | c >> 6 & 0x3F);
            literal[literalLength++] = (byte) (0x80 | c & 0x3F);
        } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1))) {
            int cp = Character.toCodePoint(c, text.charAt(i + 1));
            literal[literalLength++] = (byte) (0xF0 | cp >> 18);
            literal[literalLength++] = (byte) (0x80 | cp >> 12 & 0x3F);
            literal[literalLength++] = (byte) (0x80 | cp >> 6 & 0x3F);
            literal[literalLength++] = (byte) (0x80 | cp & 0x3F);
            return i + 1;
        } else {
            appendUnicodeEscape(c);
        }
        return i;
    }

    /** {@code \}{@code uXXXX}, uppercase digits. */
    private void appendUnicodeEscape(char c) {
        literal[literalLength++] = '\\';
        literal[literalLength++] = 'u';
        for (int shift = 12; shift >= 0; shift -= 4) {
            literal[literalLength++] = (byte) UPPER_DIGITS.charAt(c >> shift & 0xF);
        }
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
            // The segments made so far keep the full array; only the literal not yet in one moves on,
            // into an array as large again (more if it is long): a body of many small literals
            // allocates about their total, not a doubling series of copies.
            int pending = literalLength - literalStart;
            byte[] next = new byte[Math.max(literal.length, 2 * (pending + n))];
            System.arraycopy(literal, literalStart, next, 0, pending);
            literal = next;
            literalStart = 0;
            literalLength = pending;
        }
    }
}
