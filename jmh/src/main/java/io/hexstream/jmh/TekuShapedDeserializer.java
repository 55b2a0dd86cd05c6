package io.hexstream.jmh;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * A hex deserializer of the shape of Teku's {@code AbstractBytesDeserializer.java} (in
 * {@code ethereum/executionclient/src/main/java/tech/pegasys/teku/ethereum/executionclient/serialization/}): the
 * value's characters from {@link JsonParser#getTextCharacters()} (with {@code getTextOffset()} and
 * {@code getTextLength()}) to avoid a {@code String}, an optional {@code 0x}/{@code 0X} prefix, a table from character
 * to digit value, a new array, then wrapped ({@code Bytes.wrap}, {@code Bytes48.wrap}). A baseline for the benchmarks
 * only.
 *
 * @param <T> the value read
 */
public abstract class TekuShapedDeserializer<T> extends StdDeserializer<T> {
    private static final long serialVersionUID = 1L;

    /** A character's digit value, {@code -1} for anything else. */
    private static final byte[] DIGITS = new byte[128];

    static {
        Arrays.fill(DIGITS, (byte) -1);
        String lower = "0123456789abcdef";
        for (int d = 0; d < 16; d++) {
            DIGITS[lower.charAt(d)] = (byte) d;
            DIGITS[Character.toUpperCase(lower.charAt(d))] = (byte) d;
        }
    }

    TekuShapedDeserializer(Class<T> type) {
        super(type);
    }

    /** Wraps the decoded array. */
    abstract T wrap(byte[] bytes);

    @Override
    public final T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        char[] text = p.getTextCharacters();
        return wrap(decode(text, p.getTextOffset(), p.getTextLength()));
    }

    private static byte[] decode(char[] text, int offset, int length) {
        int at = offset;
        int end = offset + length;
        if (length >= 2 && text[at] == '0' && (text[at + 1] == 'x' || text[at + 1] == 'X')) {
            at += 2;
        }
        if (((end - at) & 1) != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] out = new byte[(end - at) / 2];
        for (int o = 0; o < out.length; o++, at += 2) {
            int high = digit(text[at]);
            int low = digit(text[at + 1]);
            if ((high | low) < 0) {
                throw new IllegalArgumentException("invalid hex character at " + (at - offset));
            }
            out[o] = (byte) (high << 4 | low);
        }
        return out;
    }

    private static int digit(char c) {
        return c < 128 ? DIGITS[c] : -1;
    }

    /** Teku's {@code BytesDeserializer} shape. */
    public static final class BytesOf extends TekuShapedDeserializer<Bytes> {
        private static final long serialVersionUID = 1L;

        public BytesOf() {
            super(Bytes.class);
        }

        @Override
        Bytes wrap(byte[] bytes) {
            return Bytes.wrap(bytes);
        }
    }

    /** Teku's {@code Bytes48Deserializer} shape. */
    public static final class Bytes48Of extends TekuShapedDeserializer<Bytes48> {
        private static final long serialVersionUID = 1L;

        public Bytes48Of() {
            super(Bytes48.class);
        }

        @Override
        Bytes48 wrap(byte[] bytes) {
            return Bytes48.wrap(bytes);
        }
    }
}
