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
 * Records a JSON document for a {@link JsonBody}, as a streaming generator would write it (compact, commas inserted),
 * without producing any hex. Hex values reference their source, not copied: each method's {@code @param} says what the
 * body keeps (a {@code byte[]} or a {@link ByteBuffer}'s memory read when the body is produced, a {@link ByteBuf}
 * retained until the body is released). Index lists are copied. Sizes are in bytes of the value, two hex digits per
 * byte, whether its digits are encoded as the body is produced or given already encoded.
 *
 * <p>Names and {@link #string(String) string} values are any Java {@code String}, written as UTF-8 with JSON escapes
 * where needed. Hex values are {@code "0x…"} (lowercase digits, two per byte) unless asked for without the prefix, per
 * value ({@code prefix = false}: {@code "…"}). A value already rendered as JSON (a request's id token) goes in as
 * {@link #raw(byte[]) raw}.
 *
 * <p>Not thread-safe. If building fails or is abandoned, {@link #close()} releases what was retained; after
 * {@link #build()} it does nothing.
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
    /** How many distinct index lists a builder remembers to share (V4: cells in the blob, extension cells, proofs). */
    private static final int PICKED_KEPT = 4;

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
    /** The rendered element just added, whose own comma separates it from the next value, if one follows. */
    private RenderedSegment commaCarrier;
    /**
     * The index lists copied so far, most recent at {@code pickedNext - 1}: a list equal to one of them is shared, not
     * copied again (a response's entries pick the same cells), so a body holds a few copies whatever its entry count.
     */
    private final int[][] copiedIndices = new int[PICKED_KEPT][];

    private int pickedNext;

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
        if (commaCarrier != null) {
            commaCarrier.dropComma(); // the last element of its array
            commaCarrier = null;
        }
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
     * A string value, {@code "value"} in UTF-8: {@code "} and {@code \} escaped by a backslash, control characters
     * below U+0020 as {@code \b \t \n \f \r} or {@code \}{@code u00XX} (as Jackson writes them), every other character
     * as its UTF-8 bytes; an unpaired surrogate (which has no UTF-8 form) as {@code \}{@code uXXXX}.
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

    /**
     * One complete JSON value, already rendered (UTF-8), written as it is: e.g. a request's id token.
     *
     * @param json copied: the caller may change it once this returns
     */
    public JsonBodyBuilder raw(byte[] json) {
        beforeValue();
        appendBytes(json, 0, json.length);
        return this;
    }

    /** One complete JSON value, already rendered, written as it is (UTF-8). */
    public JsonBodyBuilder raw(String json) {
        return raw(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The string {@code "0x…"} of all of {@code src}.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     */
    public JsonBodyBuilder hex(byte[] src) {
        return hex(src, 0, src.length, true);
    }

    /**
     * The string {@code "0x…"} of {@code src[offset, offset + length)}, as {@link #hex(byte[], int, int, boolean)}.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     */
    public JsonBodyBuilder hex(byte[] src, int offset, int length) {
        return hex(src, offset, length, true);
    }

    /**
     * The hex string of {@code src[offset, offset + length)}, {@code "0x…"} or, without {@code prefix}, {@code "…"}:
     * {@code 2 * length} digits.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     * @throws IndexOutOfBoundsException if the region is out of {@code src}'s bounds
     */
    public JsonBodyBuilder hex(byte[] src, int offset, int length, boolean prefix) {
        Objects.checkFromIndexSize(offset, length, src.length);
        return hexSegment(HexSource.of(src, offset), length, 1, false, prefix);
    }

    /**
     * The string {@code "0x…"} of {@code src}'s readable bytes, as {@link #hex(ByteBuf, boolean)}.
     *
     * @param src retained by the body, as {@link #hex(ByteBuf, boolean)} says
     */
    public JsonBodyBuilder hex(ByteBuf src) {
        return hex(src, true);
    }

    /**
     * The hex string of {@code src}'s readable bytes, {@code "0x…"} or, without {@code prefix}, {@code "…"}.
     *
     * @param src retained by the body and released with it (or by {@link #close()} if the build fails); not copied: its
     *     readable bytes are read when the body is produced, so do not change them until the body is released. The
     *     caller keeps its own reference, and its indices are not moved.
     */
    public JsonBodyBuilder hex(ByteBuf src, boolean prefix) {
        int length = src.readableBytes();
        beforeValue();
        addSegment(new HexSegment(HexSource.of(src.retain(), src.readerIndex()), length, 1, false, prefix));
        return this;
    }

    /**
     * The string {@code "0x…"} of {@code src}'s remaining bytes, as {@link #hex(ByteBuffer, boolean)}.
     *
     * @param src not copied, as {@link #hex(ByteBuffer, boolean)} says
     */
    public JsonBodyBuilder hex(ByteBuffer src) {
        return hex(src, true);
    }

    /**
     * The hex string of {@code src}'s remaining bytes, {@code "0x…"} or, without {@code prefix}, {@code "…"}.
     *
     * @param src not copied: its remaining bytes are read when the body is produced, so do not change them until the
     *     body is released; its position and limit are not touched
     */
    public JsonBodyBuilder hex(ByteBuffer src, boolean prefix) {
        return hexSegment(HexSource.of(src.slice()), src.remaining(), 1, false, prefix);
    }

    /**
     * A hex string value whose digits are already encoded: {@code digits}' readable bytes, ASCII hex digits (lowercase,
     * as {@link #hex(ByteBuf, boolean)} would write them; not checked, so the caller vouches for them), framed as
     * {@code "0x…"} or, without {@code prefix}, {@code "…"}. Its exact length is {@code digits.readableBytes()} plus 4
     * (or 2). A {@link JsonBodyInput} hands a long value on as retained slices of {@code digits}, not copied.
     *
     * @param digits retained by the body and released with it (or by {@link #close()} if the build fails); not copied:
     *     do not change its readable bytes until the body is released. The caller keeps its own reference, and its
     *     indices are not moved.
     */
    public JsonBodyBuilder encodedHex(ByteBuf digits, boolean prefix) {
        return encodedValues(digits, digits.readableBytes(), 1, false, prefix);
    }

    /**
     * A JSON array of {@code count} hex strings of {@code size} bytes each, whose digits are already encoded ({@code 2
     * * size} per value, back to back in {@code digits}' readable bytes): as {@link #encodedHex} per element,
     * {@code ["0x…","0x…",…]} ({@code []} when {@code count} is 0); the bytes {@link #hexArray(byte[], int, int, int,
     * boolean)} writes for the same {@code size} and {@code count}. One segment, whatever the count.
     *
     * @param digits retained by the body, as {@link #encodedHex} says
     * @param size bytes of each value (a 48-byte proof: 48), not digits
     * @throws IllegalArgumentException if {@code size} or {@code count} is negative, or {@code digits} does not hold
     *     exactly {@code 2 * size * count} readable bytes
     */
    public JsonBodyBuilder encodedHexArray(ByteBuf digits, int size, int count, boolean prefix) {
        if (size < 0 || count < 0 || 2L * size * count != digits.readableBytes()) {
            throw new IllegalArgumentException(
                    count + " values of " + size + " bytes in " + digits.readableBytes() + " readable digits");
        }
        return encodedValues(digits, Hex.encodedLength(size, false), count, true, prefix);
    }

    /** Values of {@code elementDigits} digits each, {@code elementDigits * count} being the readable bytes. */
    private JsonBodyBuilder encodedValues(
            ByteBuf digits, int elementDigits, int count, boolean bracketed, boolean prefix) {
        beforeValue();
        addSegment(new EncodedSegment(digits.retain(), elementDigits, count, bracketed, prefix));
        return this;
    }

    /**
     * Values of the open array, one per entry of {@code indices[from, from + count)}, whose digits are already encoded:
     * for an index {@code i >= 0}, the hex string of the {@code size}-byte element {@code i}, whose {@code 2 * size}
     * ASCII hex digits lie at {@code [2 * i * size, 2 * (i + 1) * size)} of {@code digits}' readable bytes, framed as
     * {@link #encodedHex} frames them ({@code "0x…"}, or {@code "…"} without {@code prefix}); for a negative index,
     * {@code null}. The bytes {@link #hexElements(byte[], int, int, int[], int, int, boolean)} writes for the same
     * {@code size} and indices, from digits given encoded: e.g. cells {@code [3, 70, -1]} picked from a blob's cached
     * digits. Each run of consecutive non-negative indices is one segment.
     *
     * @param digits retained by the body (once per run of indices), as {@link #encodedHex} says
     * @param size bytes of each element (a 2,048-byte cell: 2,048), not digits
     * @param indices copied: the caller may change it once this returns
     * @throws IllegalStateException if no array is the innermost open container
     * @throws IllegalArgumentException if {@code size} or {@code count} is negative
     * @throws IndexOutOfBoundsException if {@code [from, from + count)} is out of {@code indices}, or an index's
     *     element is out of {@code digits}' readable bytes; nothing is written then
     */
    public JsonBodyBuilder encodedHexElements(
            ByteBuf digits, int size, int[] indices, int from, int count, boolean prefix) {
        int[] picked = checkedIndices(size, 2, indices, from, count, digits.readableBytes(), 0);
        int elementDigits = Hex.encodedLength(size, false);
        for (int k = nullsFrom(picked, 0), run; k < count; k = nullsFrom(picked, run)) {
            run = runEnd(picked, k);
            addSegment(new EncodedSegment(digits.retain(), elementDigits, picked, k, run - k, false, prefix));
        }
        return this;
    }

    /**
     * An element of the open array already rendered as JSON, e.g. {@code {"blob":"0x…","proofs":[…]}}, given with the
     * comma that would follow it: {@code json}'s readable bytes are the element, then {@code ,}. The body hands them on
     * as retained slices of {@code json} (at most a chunk each), never copied: with the comma when another value of the
     * array follows, without it when the array ends there. So a run of rendered elements costs a slice per element and
     * nothing between them. The element's bytes are not checked: they must be one JSON value.
     *
     * @param json retained by the body, as {@link #encodedHex} says
     * @throws IllegalStateException if no array is the innermost open container
     * @throws IllegalArgumentException if {@code json} is not at least one byte and then a comma
     */
    public JsonBodyBuilder renderedElement(ByteBuf json) {
        if (depth == 0 || objects[depth - 1]) {
            throw new IllegalStateException("a rendered element is a value of an open array");
        }
        if (json.readableBytes() < 2 || json.getByte(json.writerIndex() - 1) != ',') {
            throw new IllegalArgumentException("a rendered element and its comma: " + json.readableBytes()
                    + " readable bytes, the last not a comma");
        }
        beforeValue();
        RenderedSegment element = new RenderedSegment(json.retain());
        addSegment(element);
        commaCarrier = element;
        return this;
    }

    /**
     * {@code ["0x…",…]}: as {@link #hexArray(byte[], int, int, int, boolean)} with the prefix.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     */
    public JsonBodyBuilder hexArray(byte[] src, int offset, int size, int count) {
        return hexArray(src, offset, size, count, true);
    }

    /**
     * A JSON array of {@code count} hex strings of {@code size} bytes each, lying back to back from
     * {@code src[offset]}: e.g. 128 cell proofs of 48 bytes, {@code ["0x…","0x…",…]} (or {@code "…"} elements without
     * {@code prefix}); {@code []} when {@code count} is 0. One segment, whatever the count.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     * @param size bytes of each value
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

    /**
     * Values {@code "0x…"} or {@code null}: as {@link #hexElements(byte[], int, int, int[], int, int, boolean)} with
     * the prefix.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     * @param indices copied: the caller may change it once this returns
     */
    public JsonBodyBuilder hexElements(byte[] src, int offset, int size, int[] indices, int from, int count) {
        return hexElements(src, offset, size, indices, from, count, true);
    }

    /**
     * Values of the open array, one per entry of {@code indices[from, from + count)}, picked from {@code src} by index:
     * for an index {@code i >= 0}, the hex string of the {@code size}-byte element {@code src[offset + i * size, offset
     * + (i + 1) * size)} ({@code "0x…"}, {@code 2 * size} digits, or {@code "…"} without {@code prefix}); for a
     * negative index, {@code null}. For example the 2,048-byte cells {@code [3, 70, -1]} of an array of cells, beside
     * values of other sources in the same array; nothing is written when {@code count} is 0. Each run of consecutive
     * non-negative indices is one segment whatever its length. The body's length is exact at once.
     *
     * @param src not copied: read when the body is produced, so do not change it until the body is released
     * @param size bytes of each element
     * @param indices copied: the caller may change it once this returns
     * @throws IllegalStateException if no array is the innermost open container
     * @throws IllegalArgumentException if {@code size} or {@code count} is negative
     * @throws IndexOutOfBoundsException if {@code [from, from + count)} is out of {@code indices}, or an index's
     *     element is out of {@code src}; nothing is written then
     */
    public JsonBodyBuilder hexElements(
            byte[] src, int offset, int size, int[] indices, int from, int count, boolean prefix) {
        int[] picked = checkedIndices(size, 1, indices, from, count, src.length, offset);
        Hex.encodedLength(size, true);
        for (int k = nullsFrom(picked, 0), run; k < count; k = nullsFrom(picked, run)) {
            run = runEnd(picked, k);
            addSegment(new HexSegment(HexSource.of(src, offset), size, picked, k, run - k, false, prefix));
        }
        return this;
    }

    /**
     * A value built before as a body of its own, e.g. one reply of a batch: {@code value}'s bytes, exactly
     * {@code value.length()} of them. Takes {@code value} over: its segments move into this body (nothing is copied)
     * and {@code value} is released, so the caller must hold its only reference.
     *
     * @throws IllegalStateException if {@code value} has another reference, or no value may go here; {@code value} is
     *     not taken then
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

    /**
     * {@code ["0x…",…]}: as {@link #hexArray(List, boolean)} with the prefix.
     *
     * @param values arrays not copied, as {@link #hexArray(List, boolean)} says
     */
    public JsonBodyBuilder hexArray(List<byte[]> values) {
        return hexArray(values, true);
    }

    /**
     * A JSON array of one hex string per element of {@code values}, in order, each of its own length
     * ({@code ["0x…",…]}, or {@code "…"} elements without {@code prefix}; {@code []} when empty).
     *
     * @param values not kept itself; its arrays are not copied: each is read when the body is produced, so do not
     *     change them until the body is released
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
     * Writes {@code null} for each negative index of {@code picked} from {@code k}; returns where the next run of
     * non-negative ones starts (its length if none). Index runs are segments, sharing one copy of the caller's indices:
     * {@code hexElements} is called a few times per blob of a getBlobsV4 answer.
     */
    private int nullsFrom(int[] picked, int k) {
        for (; k < picked.length && picked[k] < 0; k++) {
            nullValue();
        }
        if (k < picked.length) {
            beforeValue();
        }
        return k;
    }

    /** The end of the run of non-negative indices that starts at {@code k}. */
    private static int runEnd(int[] picked, int k) {
        while (k < picked.length && picked[k] >= 0) {
            k++;
        }
        return k;
    }

    /**
     * The checks of {@code hexElements} and {@code encodedHexElements}: an open array, non-negative sizes,
     * {@code [from, from + count)} within {@code indices}, and every non-negative index's element of {@code size} bytes
     * ({@code unit} source bytes each: 1 raw, 2 encoded) within {@code [offset, length)}. Checks a copy, which it
     * returns: the body keeps that, so the caller may reuse its array. An equal list copied earlier by this builder is
     * returned instead of a new copy.
     */
    private int[] checkedIndices(int size, int unit, int[] indices, int from, int count, int length, int offset) {
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
        int[] copy = copied(indices, from, count);
        long extent = (long) unit * size;
        for (int index : copy) {
            if (index >= 0) {
                Objects.checkFromIndexSize(offset + index * extent, extent, length);
            }
        }
        return copy;
    }

    /** {@code indices[from, from + count)}: an equal copy made earlier, or a new one, then remembered. */
    private int[] copied(int[] indices, int from, int count) {
        for (int[] earlier : copiedIndices) {
            if (earlier != null && Arrays.equals(earlier, 0, earlier.length, indices, from, from + count)) {
                return earlier;
            }
        }
        int[] copy = Arrays.copyOfRange(indices, from, from + count);
        copiedIndices[pickedNext] = copy;
        pickedNext = (pickedNext + 1) % PICKED_KEPT;
        return copy;
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
        } else if (commaCarrier != null) {
            commaCarrier = null; // the rendered element before carries the comma
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
        } else if (Character.isHighSurrogate(c)
                && i + 1 < text.length()
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
