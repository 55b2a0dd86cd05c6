package io.hexstream.codec.json;

import io.hexstream.codec.HexDecoder;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one JSON document (RFC 8259, UTF-8) from {@code ByteBuf} chunks as they arrive, split anywhere, and reports its
 * tokens to a {@link JsonTokenListener}; each string value goes where the listener picks when it starts
 * ({@link StringValue}): decoded as hex straight into a {@code ByteBuf} or {@code byte[]} the listener supplies,
 * skipped, or read as text. Any whitespace, member order and escapes ({@code \}{@code uXXXX} and surrogate pairs
 * included) are read as the RFC allows.
 *
 * <p>Memory: the reader holds no input beyond the chunk being read. Besides its destinations it keeps one name, string
 * or number of at most {@code maxTextLength} characters, the path (at most {@code maxDepth} levels, each with its
 * member name), and two scratch arrays of {@value #STAGE} and {@value #SCRATCH} bytes made on first need (a direct
 * chunk is read through the first; a direct destination written through the second). Hex values of any length stream.
 *
 * <p>Hex digits are decoded by {@link HexDecoder#decodeDigits}, a run at a time: SIMD lanes where
 * {@link io.hexstream.codec.Hex#kernel()} has them, else a 256-entry table; the other tokens by a byte-at-a-time state
 * machine. Every fault is a {@link JsonDecodeException} naming the fault, the JSON path and the offset of the offending
 * byte in the whole input; after one (or after a listener throws) the reader refuses more input.
 *
 * <p>Ownership: {@link #feed(ByteBuf)} reads a chunk and leaves it to the caller, who releases it. The reader never
 * retains or releases a buffer. Not thread-safe: feed it from one thread at a time.
 */
public final class JsonHexReader {
    /** Default bound on a name, string or number, in UTF-16 characters. */
    public static final int DEFAULT_MAX_TEXT_LENGTH = 16_384;
    /** Default bound on nesting. */
    public static final int DEFAULT_MAX_DEPTH = 64;
    /** Bytes of a direct chunk copied to the heap at a time: fits in L1 with the output it decodes to. */
    static final int STAGE = 16_384;
    /** Bytes decoded at a time on their way to a destination without an array. */
    static final int SCRATCH = 8_192;

    // Between tokens: what may come next.
    private static final int VALUE = 0;
    private static final int VALUE_OR_END = 1;
    private static final int NAME_OR_END = 2;
    private static final int NAME = 3;
    private static final int COLON = 4;
    private static final int COMMA_OR_END = 5;
    private static final int AFTER_TOP = 6;
    // Inside a token.
    private static final int IN_TEXT = 7;
    private static final int IN_HEX = 8;
    private static final int IN_NUMBER = 9;
    private static final int IN_LITERAL = 10;
    private static final int FAILED = 11;

    // What a text token is.
    private static final int MEMBER_NAME = 0;
    private static final int STRING = 1;
    private static final int SKIPPED = 2;

    // Where a hex value is: before '0', before 'x', among the digits.
    private static final int PREFIX_0 = 0;
    private static final int PREFIX_X = 1;
    private static final int DIGITS = 2;

    // Number grammar (RFC 8259, section 6): after '-', a leading 0, integer digits, '.', fraction digits,
    // 'e', the exponent's sign, its digits.
    private static final int MINUS = 0;
    private static final int ZERO = 1;
    private static final int INTEGER = 2;
    private static final int POINT = 3;
    private static final int FRACTION = 4;
    private static final int E = 5;
    private static final int E_SIGN = 6;
    private static final int EXPONENT = 7;

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private final JsonTokenListener listener;
    private final int maxTextLength;
    private final JsonPath path;
    private final StringValue value;
    private final TextView view = new TextView();

    private int state = VALUE;
    /** Absolute offset of index 0 of the array being read: a byte at index {@code i} is at {@code base + i}. */
    private long base;

    private long consumed;
    /** The offset of the byte that completed the token being reported: {@link #tokenOffset()}. */
    private long tokenOffset;

    private char[] text;
    private int textLength;
    private int textKind;
    /** 0: none; 1: after a backslash; 2 to 5: that many minus 2 digits of a {@code \}{@code u} escape read. */
    private int escape;

    private int escaped;
    /** UTF-8 continuation bytes still to come, the code point so far, and its least value (no overlong form). */
    private int utf8Pending;

    private int codePoint;
    private int codePointMin;

    private int hexPhase;
    private int pendingDigit;
    private int written;
    private int minBytes;
    private int maxBytes;
    private ByteBuf buffer;
    private byte[] array;
    private int arrayOffset;

    private int numberPhase;
    private byte[] literal;
    private int literalPosition;

    private byte[] stage;
    private byte[] scratch;

    /** A reader with {@link #DEFAULT_MAX_TEXT_LENGTH} and {@link #DEFAULT_MAX_DEPTH}. */
    public JsonHexReader(JsonTokenListener listener) {
        this(listener, DEFAULT_MAX_TEXT_LENGTH, DEFAULT_MAX_DEPTH);
    }

    /**
     * A reader reporting to {@code listener}, refusing names, strings read as text and numbers longer than
     * {@code maxTextLength} characters and nesting deeper than {@code maxDepth}.
     */
    public JsonHexReader(JsonTokenListener listener, int maxTextLength, int maxDepth) {
        if (maxTextLength < 1 || maxDepth < 1) {
            throw new IllegalArgumentException("bounds must be positive: " + maxTextLength + ", " + maxDepth);
        }
        this.listener = listener;
        this.maxTextLength = maxTextLength;
        this.text = new char[Math.min(64, maxTextLength)];
        this.path = new JsonPath(maxDepth);
        this.value = new StringValue(path);
    }

    /**
     * Reads {@code chunk}'s readable bytes (heap, direct or composite) and moves its reader index past them. The chunk
     * stays the caller's: the reader keeps no reference to it.
     *
     * @throws JsonDecodeException if the bytes read so far are not the start of one JSON document as the listener chose
     *     to read it
     * @throws IllegalStateException if the reader has failed before
     */
    public void feed(ByteBuf chunk) {
        checkNotFailed();
        int length = chunk.readableBytes();
        try {
            if (chunk.hasArray()) {
                int from = chunk.arrayOffset() + chunk.readerIndex();
                read(chunk.array(), from, from + length);
            } else {
                if (stage == null) {
                    stage = new byte[STAGE];
                }
                for (int done = 0, n; done < length; done += n) {
                    n = Math.min(STAGE, length - done);
                    chunk.getBytes(chunk.readerIndex() + done, stage, 0, n);
                    read(stage, 0, n);
                }
            }
        } catch (RuntimeException | Error e) {
            fail();
            throw e;
        }
        chunk.skipBytes(length);
    }

    /**
     * Marks the end of input.
     *
     * @throws JsonDecodeException unless exactly one complete JSON value (and whitespace) was read
     * @throws IllegalStateException if the reader has failed before
     */
    public void end() {
        checkNotFailed();
        base = consumed;
        if (state == IN_NUMBER && isWholeNumber()) {
            endNumber(0);
        }
        if (state != AFTER_TOP) {
            throw error("unexpected end of input", 0);
        }
    }

    /** Whether the top-level value is complete (only whitespace may follow). */
    public boolean isComplete() {
        return state == AFTER_TOP;
    }

    /** Bytes read so far. */
    public long offset() {
        return consumed;
    }

    /**
     * During a listener call, the offset in the whole input of the byte that completed the token being reported: the
     * bracket of {@code beginObject} to {@code endArray}, the opening quote of {@code stringStart}, the closing quote
     * of {@code name}, {@code string} and {@code hexEnd}, the last letter of {@code true}, {@code false} and
     * {@code null}, the byte after a number (the input's length if {@link #end()} completes it). A listener that
     * refuses what it is told names this offset in its fault, as the reader's own faults do. Outside a call, the last
     * such offset.
     */
    public long tokenOffset() {
        return tokenOffset;
    }

    /** The current path, {@code result[3].blob} (a new {@code String}). */
    public String path() {
        return path.render();
    }

    private void checkNotFailed() {
        if (state == FAILED) {
            throw new IllegalStateException("the reader has failed");
        }
    }

    private void fail() {
        state = FAILED;
        buffer = null;
        array = null;
    }

    private void read(byte[] b, int from, int to) {
        base = consumed - from;
        int i = from;
        while (i < to) {
            switch (state) {
                case IN_HEX -> i = hexRun(b, i, to);
                case IN_TEXT -> i = textRun(b, i, to);
                case IN_NUMBER -> i = numberRun(b, i, to);
                case IN_LITERAL -> i = literalRun(b, i, to);
                default -> i = structure(b, i, to);
            }
        }
        consumed += to - from;
    }

    // ---------------------------------------------------------------- between tokens

    private int structure(byte[] b, int i, int to) {
        for (; i < to; i++) {
            int c = b[i] & 0xFF;
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                token(c, i);
                return i + 1;
            }
        }
        return i;
    }

    private void token(int c, int i) {
        switch (state) {
            case VALUE -> beginValue(c, i);
            case VALUE_OR_END -> {
                if (c == ']') {
                    endContainer(false, i);
                } else {
                    beginValue(c, i);
                }
            }
            case NAME_OR_END, NAME -> {
                if (c == '}' && state == NAME_OR_END) {
                    endContainer(true, i);
                } else if (c == '"') {
                    beginText(MEMBER_NAME);
                } else {
                    throw error("expected a member name, found " + describeByte(c), i);
                }
            }
            case COLON -> {
                if (c != ':') {
                    throw error("expected ':', found " + describeByte(c), i);
                }
                state = VALUE;
            }
            case COMMA_OR_END -> afterValue(c, i);
            default -> throw error("unexpected " + describeByte(c) + " after the top-level value", i);
        }
    }

    private void afterValue(int c, int i) {
        boolean object = path.inObject();
        if (c == ',') {
            if (object) {
                state = NAME;
            } else {
                path.next();
                state = VALUE;
            }
        } else if (c == (object ? '}' : ']')) {
            endContainer(object, i);
        } else {
            throw error("expected ',' or '" + (object ? '}' : ']') + "', found " + describeByte(c), i);
        }
    }

    private void beginValue(int c, int i) {
        switch (c) {
            case '{', '[' -> {
                boolean object = c == '{';
                if (!path.push(object)) {
                    throw error("nesting deeper than " + (path.depth()) + " levels", i);
                }
                state = object ? NAME_OR_END : VALUE_OR_END;
                at(i);
                if (object) {
                    listener.beginObject();
                } else {
                    listener.beginArray();
                }
            }
            case '"' -> beginString(i);
            case 't' -> beginLiteral(TRUE);
            case 'f' -> beginLiteral(FALSE);
            case 'n' -> beginLiteral(NULL);
            case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> {
                state = IN_NUMBER;
                numberPhase = c == '-' ? MINUS : c == '0' ? ZERO : INTEGER;
                textLength = 0;
                append((char) c, i);
            }
            default -> throw error("expected a value, found " + describeByte(c), i);
        }
    }

    private void endContainer(boolean object, int i) {
        path.pop();
        valueDone();
        at(i);
        if (object) {
            listener.endObject();
        } else {
            listener.endArray();
        }
    }

    /** A value is complete: next comes a comma or the end of its container, or nothing at the top level. */
    private void valueDone() {
        state = path.depth() == 0 ? AFTER_TOP : COMMA_OR_END;
    }

    // ---------------------------------------------------------------- literals and numbers

    private void beginLiteral(byte[] expected) {
        state = IN_LITERAL;
        literal = expected;
        literalPosition = 1;
    }

    private int literalRun(byte[] b, int i, int to) {
        for (; i < to && literalPosition < literal.length; i++, literalPosition++) {
            if (b[i] != literal[literalPosition]) {
                throw error(
                        "expected '" + new String(literal, StandardCharsets.US_ASCII) + "', found "
                                + describeByte(b[i] & 0xFF),
                        i);
            }
        }
        if (literalPosition == literal.length) {
            valueDone();
            at(i - 1);
            if (literal == NULL) {
                listener.nullValue();
            } else {
                listener.bool(literal == TRUE);
            }
        }
        return i;
    }

    private int numberRun(byte[] b, int i, int to) {
        for (; i < to; i++) {
            int c = b[i] & 0xFF;
            int next = nextNumberPhase(numberPhase, c);
            if (next < 0) {
                if (!isWholeNumber()) {
                    throw error(
                            "expected a digit" + (numberPhase == E ? " or a sign" : "") + " in a number, found "
                                    + describeByte(c),
                            i);
                }
                endNumber(i);
                return i; // the byte after the number is read again, as structure
            }
            numberPhase = next;
            append((char) c, i);
        }
        return i;
    }

    /** RFC 8259 section 6: the phase after {@code c}, or -1 when {@code c} cannot continue the number. */
    private static int nextNumberPhase(int phase, int c) {
        boolean digit = c >= '0' && c <= '9';
        boolean e = c == 'e' || c == 'E';
        return switch (phase) {
            case MINUS -> c == '0' ? ZERO : digit ? INTEGER : -1;
            case ZERO -> c == '.' ? POINT : e ? E : -1;
            case INTEGER -> digit ? INTEGER : c == '.' ? POINT : e ? E : -1;
            case POINT, FRACTION -> digit ? FRACTION : phase == FRACTION && e ? E : -1;
            case E -> c == '+' || c == '-' ? E_SIGN : digit ? EXPONENT : -1;
            default -> digit ? EXPONENT : -1; // E_SIGN, EXPONENT
        };
    }

    private boolean isWholeNumber() {
        return numberPhase == ZERO || numberPhase == INTEGER || numberPhase == FRACTION || numberPhase == EXPONENT;
    }

    private void endNumber(int i) {
        valueDone();
        at(i);
        listener.number(view.set(text, 0, textLength));
    }

    // ---------------------------------------------------------------- strings as text

    private void beginString(int i) {
        at(i);
        value.open();
        try {
            listener.stringStart(value);
        } finally {
            value.close();
        }
        if (value.kind == StringValue.HEX) {
            state = IN_HEX;
            hexPhase = PREFIX_0;
            pendingDigit = -1;
            written = 0;
            minBytes = value.minBytes;
            maxBytes = value.maxBytes;
            buffer = value.buffer;
            array = value.array;
            arrayOffset = value.arrayOffset;
        } else {
            beginText(value.kind == StringValue.SKIP ? SKIPPED : STRING);
        }
    }

    private void beginText(int kind) {
        state = IN_TEXT;
        textKind = kind;
        textLength = 0;
    }

    private int textRun(byte[] b, int i, int to) {
        if (escape != 0 || utf8Pending != 0) {
            textEscapeOrUtf8(b[i] & 0xFF, i);
            return i + 1;
        }
        boolean keep = textKind != SKIPPED;
        for (; i < to; i++) {
            int c = b[i] & 0xFF;
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) {
                textSpecial(c, i);
                return i + 1;
            }
            if (keep) {
                append((char) c, i);
            }
        }
        return i;
    }

    private void textSpecial(int c, int i) {
        if (c == '"') {
            endText(i);
        } else if (c == '\\') {
            escape = 1;
        } else if (c < 0x20) {
            throw error("unescaped control character " + describeChar(c) + " in a string", i);
        } else if (c >= 0xC2 && c <= 0xDF) {
            beginUtf8(c & 0x1F, 1, 0x80);
        } else if (c >= 0xE0 && c <= 0xEF) {
            beginUtf8(c & 0x0F, 2, 0x800);
        } else if (c >= 0xF0 && c <= 0xF4) {
            beginUtf8(c & 0x07, 3, 0x10000);
        } else {
            throw error("invalid UTF-8 byte " + byteHex(c), i);
        }
    }

    private void beginUtf8(int bits, int pending, int min) {
        codePoint = bits;
        utf8Pending = pending;
        codePointMin = min;
    }

    private void textEscapeOrUtf8(int c, int i) {
        if (escape != 0) {
            int ch = escapeChar(c, i);
            if (ch >= 0 && textKind != SKIPPED) {
                append((char) ch, i);
            }
            return;
        }
        if ((c & 0xC0) != 0x80) {
            throw error("invalid UTF-8 byte " + byteHex(c) + ", expected a continuation byte", i);
        }
        codePoint = codePoint << 6 | c & 0x3F;
        if (--utf8Pending > 0) {
            return;
        }
        if (codePoint < codePointMin
                || codePoint > Character.MAX_CODE_POINT
                || codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
            throw error("invalid UTF-8 sequence for " + describeChar(codePoint), i);
        }
        if (textKind == SKIPPED) {
            return;
        }
        if (Character.isBmpCodePoint(codePoint)) {
            append((char) codePoint, i);
        } else {
            append(Character.highSurrogate(codePoint), i);
            append(Character.lowSurrogate(codePoint), i);
        }
    }

    /**
     * One byte of an escape after its backslash: the character it stands for once complete, else -1.
     * {@code \}{@code uD83D\}{@code uDE00} is two UTF-16 characters, so pairs need nothing more.
     */
    private int escapeChar(int c, int i) {
        if (escape == 1) {
            int ch = switch (c) {
                case '"', '\\', '/' -> c;
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                case 'u' -> -1;
                default -> throw error("invalid escape \\" + (char) c, i);
            };
            escape = ch < 0 ? 2 : 0;
            escaped = 0;
            return ch;
        }
        int digit = HexDecoder.digit(c);
        if (digit < 0) {
            throw error("expected a hex digit in a \\u escape, found " + describeByte(c), i);
        }
        escaped = escaped << 4 | digit;
        if (++escape < 6) {
            return -1;
        }
        escape = 0;
        return escaped;
    }

    private void append(char c, int i) {
        if (textKind == MEMBER_NAME
                && (Character.isSurrogate(c) || textLength > 0 && Character.isHighSurrogate(text[textLength - 1]))) {
            checkNameSurrogates(c, i);
        }
        if (textLength == text.length) {
            if (textLength == maxTextLength) {
                throw error(
                        (state == IN_NUMBER ? "number" : textKind == MEMBER_NAME ? "name" : "string") + " longer than "
                                + maxTextLength + " characters",
                        i);
            }
            text = Arrays.copyOf(text, Math.min(maxTextLength, 2 * textLength));
        }
        text[textLength++] = c;
    }

    /**
     * A name's escaped surrogates must pair up, a high one then a low one, as Jackson requires of names (a string value
     * may hold a lone one, as RFC 8259 allows).
     */
    private void checkNameSurrogates(char c, int i) {
        boolean afterHigh = textLength > 0 && Character.isHighSurrogate(text[textLength - 1]);
        if (afterHigh != Character.isLowSurrogate(c)) {
            throw error("unpaired surrogate " + describeChar(afterHigh ? text[textLength - 1] : c) + " in a name", i);
        }
    }

    private void endText(int i) {
        at(i);
        if (textKind == MEMBER_NAME) {
            if (textLength > 0 && Character.isHighSurrogate(text[textLength - 1])) {
                throw error("unpaired surrogate " + describeChar(text[textLength - 1]) + " in a name", i);
            }
            path.name(text, textLength);
            state = COLON;
            listener.name(view.set(text, 0, textLength));
            return;
        }
        valueDone();
        if (textKind == STRING) {
            listener.string(view.set(text, 0, textLength));
        }
    }

    // ---------------------------------------------------------------- hex values

    private int hexRun(byte[] b, int i, int to) {
        if (hexPhase == DIGITS && pendingDigit < 0 && escape == 0) {
            int n = decodeRun(b, i, (int) Math.min(to - i, 2L * (maxBytes - written)));
            written += n;
            i += 2 * n;
            if (i == to) {
                return i;
            }
        }
        hexByte(b[i] & 0xFF, i);
        return i + 1;
    }

    /** Decodes the digit pairs at the start of {@code b[i, i + length)} to the destination; returns their count. */
    private int decodeRun(byte[] b, int i, int length) {
        if (array != null) {
            return HexDecoder.decodeDigits(b, i, length, array, arrayOffset + written);
        }
        if (buffer != null && buffer.hasArray()) {
            buffer.ensureWritable(length >>> 1);
            int w = buffer.writerIndex();
            int n = HexDecoder.decodeDigits(b, i, length, buffer.array(), buffer.arrayOffset() + w);
            buffer.writerIndex(w + n);
            return n;
        }
        if (scratch == null) {
            scratch = new byte[SCRATCH];
        }
        int pairs = length >>> 1;
        int done = 0;
        while (done < pairs) {
            int want = Math.min(pairs - done, SCRATCH);
            int n = HexDecoder.decodeDigits(b, i + 2 * done, 2 * want, scratch, 0);
            if (buffer != null) {
                buffer.writeBytes(scratch, 0, n);
            }
            done += n;
            if (n < want) {
                break;
            }
        }
        return done;
    }

    /** One byte of a hex value off the bulk path: the prefix, an odd digit, an escape, the end, a fault. */
    private void hexByte(int c, int i) {
        if (escape != 0) {
            int ch = escapeChar(c, i);
            if (ch >= 0) {
                hexChar(ch, i);
            }
        } else if (c == '\\') {
            escape = 1;
        } else if (c == '"' && hexPhase == DIGITS) {
            endHex(i);
        } else if (c >= 0x80) {
            throw error("invalid hex character, byte " + byteHex(c), i);
        } else {
            hexChar(c, i);
        }
    }

    private void hexChar(int c, int i) {
        if (hexPhase != DIGITS) {
            char expected = hexPhase == PREFIX_0 ? '0' : 'x';
            if (c != expected) {
                throw error("expected '" + expected + "' of the 0x prefix, found " + describeChar(c), i);
            }
            hexPhase++;
            return;
        }
        int digit = HexDecoder.digit(c);
        if (digit < 0) {
            throw error("invalid hex character " + describeChar(c), i);
        }
        if (pendingDigit >= 0) {
            byte b = (byte) (pendingDigit << 4 | digit);
            if (array != null) {
                array[arrayOffset + written] = b;
            } else if (buffer != null) {
                buffer.writeByte(b);
            }
            written++;
            pendingDigit = -1;
        } else if (written == maxBytes) {
            throw error("hex value longer than " + maxBytes + " bytes", i);
        } else {
            pendingDigit = digit;
        }
    }

    private void endHex(int i) {
        if (pendingDigit >= 0) {
            throw error("odd number of hex digits", i);
        }
        if (written < minBytes) {
            throw error("hex value of " + written + " bytes, expected at least " + minBytes, i);
        }
        buffer = null;
        array = null;
        valueDone();
        at(i);
        listener.hexEnd(written);
    }

    /** The token being reported was completed by the byte at index {@code i} of the array being read. */
    private void at(int i) {
        tokenOffset = base + i;
    }

    // ---------------------------------------------------------------- faults

    private JsonDecodeException error(String fault, int i) {
        fail();
        return new JsonDecodeException(path.render(), fault, base + i);
    }

    /** A byte of input: {@code 'x'} if printable ASCII, else {@code U+000A} (control) or {@code byte 0xC3}. */
    private static String describeByte(int c) {
        return c < 0x80 ? describeChar(c) : "byte " + byteHex(c);
    }

    private static String describeChar(int c) {
        return c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("U+%04X", c);
    }

    private static String byteHex(int c) {
        return String.format("0x%02X", c);
    }
}
